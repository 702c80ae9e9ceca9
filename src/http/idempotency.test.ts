// Idempotency-Key (issue 16): a retry gets the first response again and does nothing new; the key is
// refused for another request, while the first still runs, or with a bad value; a request refused by
// validation stores nothing; keys are per organisation and credential and live 24 hours; a 4xx is
// stored, a 5xx not.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeVehicle, outboxEvents } from '../../test/factories.js'
import {
  adminClient,
  client,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../test/helpers.js'
import { makeDashboardUser, signIn } from '../../test/sessions.js'
import { fingerprintOf } from '../modules/idempotency/fingerprint.js'
import { ExpiredKeyPruner } from '../modules/idempotency/service.js'

const JOB = { title: 'Boiler service', priority: 'HIGH', serviceDuration: 1800 }

for (const dialect of DIALECTS) {
  describe(`${dialect}: Idempotency-Key`, () => {
    let t: TestContext
    let tenant: TestTenant

    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t)
    })
    afterAll(() => t.close())

    const keyed = (key: string, who: TestTenant = tenant) =>
      client(t, { ...who.headers, 'idempotency-key': key })
    const count = async (table: 'jobs' | 'idempotency_claims', organisationId = tenant.organisationId) => {
      const row = await t.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organisation_id', '=', organisationId)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    }
    const keyRow = (key: string, organisationId = tenant.organisationId) =>
      t.database.db
        .selectFrom('idempotency_claims')
        .selectAll()
        .where('organisation_id', '=', organisationId)
        .where('key', '=', key)
        .executeTakeFirst()

    it('replays the first response to a retry, byte for byte, and creates nothing more', async () => {
      const jobsBefore = await count('jobs')
      const eventsBefore = (await outboxEvents(t.database.db, tenant.organisationId)).length
      const api = keyed('create-boiler-1')
      const first = await api.post('/jobs', JOB)
      expect(first.status).toBe(201)
      expect(first.headers['idempotent-replayed']).toBeUndefined()
      // The keys of the body in another order are the same request.
      const retry = await api.post('/jobs', {
        serviceDuration: 1800,
        priority: 'HIGH',
        title: 'Boiler service',
      })
      expect(retry.status).toBe(201)
      expect(retry.headers['idempotent-replayed']).toBe('true')
      expect(retry.headers['content-type']).toBe(first.headers['content-type'])
      expect(retry.body).toEqual(first.body)
      expect(retry.headers['x-ratelimit-limit']).toBeDefined()
      expect(await count('jobs')).toBe(jobsBefore + 1)
      const events = await outboxEvents(t.database.db, tenant.organisationId)
      expect(events).toHaveLength(eventsBefore + 1)
      expect((await client(t, tenant.headers).get(`/jobs/${first.body.data.job.id}`)).status).toBe(200)
      expect(await keyRow('create-boiler-1')).toMatchObject({ status: 'DONE', response_status: 201 })
    })

    it('changes nothing for requests without the header', async () => {
      const api = client(t, tenant.headers)
      const [a, b] = [await api.post('/jobs', JOB), await api.post('/jobs', JOB)]
      expect([a.status, b.status]).toEqual([201, 201])
      expect(a.body.data.job.id).not.toBe(b.body.data.job.id)
      expect(a.headers['idempotent-replayed']).toBeUndefined()
    })

    it('refuses the key for another body, path or method: 422 IDEMPOTENCY_KEY_REUSED, nothing done', async () => {
      const api = keyed('reused-1')
      const first = await api.post('/jobs', JOB)
      const jobs = await count('jobs')
      for (const attempt of [
        () => api.post('/jobs', { ...JOB, title: 'Another job' }),
        () => api.post('/customers', { name: 'Ada', latitude: 51.5, longitude: -0.1 }),
        () => api.patch(`/jobs/${first.body.data.job.id}`, { title: 'Renamed' }),
      ]) {
        const refused = await attempt()
        expect([refused.status, refused.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED'])
        expect(refused.body.error).toMatch(/Idempotency-Key/)
      }
      expect(await count('jobs')).toBe(jobs)
      expect(
        (await client(t, tenant.headers).get(`/jobs/${first.body.data.job.id}`)).body.data.job.title,
      ).toBe(JOB.title)
      // The fingerprint covers the method, the path with its query, and the body.
      const print = fingerprintOf('POST', '/v1/public/jobs', { a: 1 })
      expect(fingerprintOf('PUT', '/v1/public/jobs', { a: 1 })).not.toBe(print)
      expect(fingerprintOf('POST', '/v1/public/jobs?x=1', { a: 1 })).not.toBe(print)
      expect(fingerprintOf('POST', '/v1/public/jobs', { a: 2 })).not.toBe(print)
    })

    it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request runs, then takes over a stale claim', async () => {
      const at = new Date().toISOString()
      const apiKey = await t.database.db
        .selectFrom('api_keys')
        .select('id')
        .where('organisation_id', '=', tenant.organisationId)
        .executeTakeFirstOrThrow()
      const running = {
        organisation_id: tenant.organisationId,
        credential: `key:${apiKey.id}`,
        key: 'in-flight-1',
        fingerprint: fingerprintOf('POST', '/v1/public/jobs', JOB),
        status: 'RUNNING' as const,
        claim_id: 'another-request',
        response_status: null,
        response_body: null,
        locked_at: at,
        created_at: at,
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      }
      await t.database.db.insertInto('idempotency_claims').values(running).execute()
      const api = keyed('in-flight-1')
      const busy = await api.post('/jobs', JOB)
      expect([busy.status, busy.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE'])
      // Its process died a minute ago without committing: a retry runs the request.
      await t.database.db
        .updateTable('idempotency_claims')
        .set({ locked_at: new Date(Date.now() - 61_000).toISOString() })
        .where('key', '=', 'in-flight-1')
        .execute()
      const taken = await api.post('/jobs', JOB)
      expect(taken.status).toBe(201)
      expect(taken.headers['idempotent-replayed']).toBeUndefined()
      expect((await api.post('/jobs', JOB)).headers['idempotent-replayed']).toBe('true')
    })

    it('stores nothing for a request that fails validation: a corrected retry with the key runs', async () => {
      const api = keyed('invalid-first')
      const refused = await api.post('/jobs', { ...JOB, title: '' })
      expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_ERROR'])
      expect(await keyRow('invalid-first')).toBeUndefined()
      const corrected = await api.post('/jobs', JOB)
      expect([corrected.status, corrected.headers['idempotent-replayed']]).toEqual([201, undefined])
    })

    it('refuses a key that is empty, too long or not printable ASCII, naming the header', async () => {
      for (const key of ['', 'k'.repeat(256), 'clé-1']) {
        const refused = await t.app.inject({
          method: 'POST',
          url: '/v1/public/jobs',
          headers: { ...tenant.headers, 'idempotency-key': key },
          payload: JOB,
        })
        expect(refused.statusCode, key).toBe(400)
        expect(refused.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: /^idempotency-key must be/ })
        expect(refused.json().details[0].path).toBe('/headers/idempotency-key')
      }
      expect((await keyed('k'.repeat(255)).post('/jobs', JOB)).status).toBe(201)
    })

    it('keeps keys per organisation: the same key in another organisation is another request', async () => {
      const other = await createTenant(t)
      const mine = await keyed('shared-key').post('/jobs', JOB)
      const theirs = await keyed('shared-key', other).post('/jobs', { title: 'Their own job' })
      expect([mine.status, theirs.status]).toEqual([201, 201])
      expect(theirs.headers['idempotent-replayed']).toBeUndefined()
      expect(theirs.body.data.job.title).toBe('Their own job')
      expect(await count('jobs', other.organisationId)).toBe(1)
    })

    it('keeps keys per API key: another key of the organisation with the same key and body gets its own answer', async () => {
      const owner = await createTenant(t)
      const second = await createKey(t, owner.organisationId, { scopes: ['read', 'write'] })
      const first = await keyed('per-credential', owner).post('/jobs', JOB)
      const other = await client(t, { ...second.headers, 'idempotency-key': 'per-credential' }).post(
        '/jobs',
        JOB,
      )
      expect([first.status, other.status]).toEqual([201, 201])
      expect(other.headers['idempotent-replayed']).toBeUndefined()
      expect(other.body.data.job.id).not.toBe(first.body.data.job.id)
      expect(await count('jobs', owner.organisationId)).toBe(2)
      // Each key's retries still replay its own first answer.
      const again = await keyed('per-credential', owner).post('/jobs', JOB)
      expect([again.headers['idempotent-replayed'], again.body]).toEqual(['true', first.body])
      const otherAgain = await client(t, { ...second.headers, 'idempotency-key': 'per-credential' }).post(
        '/jobs',
        JOB,
      )
      expect([otherAgain.headers['idempotent-replayed'], otherAgain.body]).toEqual(['true', other.body])
    })

    it("keeps keys per signed-in user: a worker sending another worker's key never sees that worker's job", async () => {
      const owner = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const org = owner.organisationId
      const db = t.database.db
      const depot = await makeLocation(db, org)
      const van = await makeVehicle(db, org, depot.id)
      const day = '2026-11-26'
      const workers = await Promise.all(
        ['Wendy', 'Walt'].map(async (name) => {
          const user = await makeDashboardUser(t, org, { role: 'WORKER', name })
          const shift = await makeShift(
            db,
            org,
            { userId: user.id, locationId: depot.id, vehicleId: van.id },
            { day: 'THURSDAY' },
          )
          const job = (
            await client(t, owner.headers).post('/jobs', {
              title: `${name}'s visit`,
              locationId: depot.id,
              jobLatitude: 53.4,
              jobLongitude: -2.2,
            })
          ).body.data.job
          const assigned = await adminClient(t, owner.headers).post(`/jobs/${job.id}/assign`, {
            userId: user.id,
            shiftId: shift.id,
            scheduledStart: `${day}T09:00:00Z`,
            scheduledEnd: `${day}T10:00:00Z`,
          })
          expect(assigned.status, assigned.body.error).toBe(200)
          return { user, job: job.id as string, session: await signIn(t, user) }
        }),
      )
      const [wendy, walt] = workers as [(typeof workers)[0], (typeof workers)[0]]
      const start = (who: typeof wendy, jobId: string) =>
        t.app.inject({
          method: 'POST',
          url: `/v1/admin/my/jobs/${jobId}/start`,
          headers: {
            cookie: `fs_session=${who.session.cookie}`,
            'x-csrf-token': who.session.csrfToken,
            'idempotency-key': 'start-my-job',
          },
        })
      const started = await start(wendy, wendy.job)
      expect(started.statusCode).toBe(200)
      expect(started.json().data.job.title).toBe("Wendy's visit")
      // Walt sends the same request with the same key: his own claim, and his own answer.
      const refused = await start(walt, wendy.job)
      expect([refused.statusCode, refused.json().code]).toEqual([404, 'NOT_FOUND'])
      expect(refused.headers['idempotent-replayed']).toBeUndefined()
      expect(refused.body).not.toContain("Wendy's visit")
      // Wendy's retry (from any session of hers) still replays her answer.
      const replayed = await start({ ...wendy, session: await signIn(t, wendy.user) }, wendy.job)
      expect([replayed.statusCode, replayed.headers['idempotent-replayed']]).toEqual([200, 'true'])
      expect(replayed.body).toBe(started.body)
    })

    it('forgets a key after 24 hours: the key then starts afresh, and the pruner deletes it', async () => {
      const api = keyed('day-old')
      const first = await api.post('/jobs', JOB)
      await t.database.db
        .updateTable('idempotency_claims')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('key', '=', 'day-old')
        .execute()
      const again = await api.post('/jobs', { title: 'A new request under an old key' })
      expect([again.status, again.headers['idempotent-replayed']]).toEqual([201, undefined])
      expect(again.body.data.job.id).not.toBe(first.body.data.job.id)

      await keyed('to-prune').post('/jobs', JOB)
      await t.database.db
        .updateTable('idempotency_claims')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('key', '=', 'to-prune')
        .execute()
      const pruner = new ExpiredKeyPruner(t.database.db, t.app.log)
      expect(await pruner.prune()).toBe(1)
      expect(await keyRow('to-prune')).toBeUndefined()
      expect(await keyRow('day-old')).toBeDefined()
    })

    it('stores a 4xx the handler answered and replays it; nothing of the request was kept', async () => {
      const api = keyed('missing-job')
      const first = await api.patch('/jobs/no-such-job', { title: 'x' })
      expect([first.status, first.body.code]).toEqual([404, 'NOT_FOUND'])
      const replay = await api.patch('/jobs/no-such-job', { title: 'x' })
      expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([404, 'true'])
      expect(replay.body).toEqual(first.body)

      // A write that failed half-way (the customer check comes after nothing was written) rolls back.
      const jobs = await count('jobs')
      const refused = await keyed('bad-customer').post('/jobs', { ...JOB, customerId: 'nobody' })
      expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_ERROR'])
      expect((await keyed('bad-customer').post('/jobs', { ...JOB, customerId: 'nobody' })).status).toBe(400)
      expect(await count('jobs')).toBe(jobs)
    })

    it('does not store a 5xx: nothing was committed, so a retry runs the request again', async () => {
      const db = t.database.db
      if (dialect === 'postgres') {
        await sql`CREATE FUNCTION refuse_jobs() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$ LANGUAGE plpgsql`.execute(
          db,
        )
        await sql`CREATE TRIGGER refuse_jobs BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION refuse_jobs()`.execute(
          db,
        )
      } else {
        await sql`CREATE TRIGGER refuse_jobs BEFORE INSERT ON jobs BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`.execute(
          db,
        )
      }
      const api = keyed('server-error')
      const failed = await api.post('/jobs', JOB)
      await sql`DROP TRIGGER refuse_jobs${sql.raw(dialect === 'postgres' ? ' ON jobs' : '')}`.execute(db)
      expect([failed.status, failed.body.code]).toEqual([500, 'INTERNAL_ERROR'])
      expect(await keyRow('server-error')).toBeUndefined()
      const retried = await api.post('/jobs', JOB)
      expect([retried.status, retried.headers['idempotent-replayed']]).toEqual([201, undefined])
    })

    it('ignores the header on GET and DELETE', async () => {
      const job = (await client(t, tenant.headers).post('/jobs', JOB)).body.data.job
      const api = keyed('delete-1')
      expect((await api.get(`/jobs/${job.id}`)).headers['idempotent-replayed']).toBeUndefined()
      expect((await api.delete(`/jobs/${job.id}`)).status).toBe(200)
      expect((await api.delete(`/jobs/${job.id}`)).status).toBe(404)
      expect(await keyRow('delete-1')).toBeUndefined()
    })

    it('runs concurrent retries of one POST once: one 201, the others replays or 409', async () => {
      const jobs = await count('jobs')
      const answers = await Promise.all(Array.from({ length: 8 }, () => keyed('burst').post('/jobs', JOB)))
      const fresh = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined)
      expect(fresh).toHaveLength(1)
      for (const answer of answers) {
        if (answer.status === 201) expect(answer.body).toEqual(fresh[0]?.body)
        else expect([answer.status, answer.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE'])
      }
      expect(await count('jobs')).toBe(jobs + 1)
    })
  })
}
