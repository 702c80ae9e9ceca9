// Work done offline is recorded when it was done (issue 29 §5): the phone sends startedAt/completedAt
// with the start and the completion it made without a connection; the server keeps them (and when it
// received them: startRecordedAt/completeRecordedAt), and the events carry them. A time is accepted
// only if it is not in the future (2 min of clock difference), within the worker's shift ± 30 min and
// not before the job started. The server's clock is fixed (Date only) at 16:32:24 on a Thursday.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeLocation, makeShift, makeVehicle, outboxEvents } from './factories.js'
import { adminClient, client, createTenant, createTestApp, DIALECTS, type TestContext } from './helpers.js'
import { makeDashboardUser, sessionClient, signIn } from './sessions.js'

const DATE = '2026-11-26' // a Thursday; Europe/London is on UTC in November
const NOW = `${DATE}T16:32:24.000Z`
const at = (time: string) => `${DATE}T${time}Z`

for (const dialect of DIALECTS) {
  describe(`${dialect}: when offline work happened`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(NOW) })
    })
    afterEach(() => {
      vi.useRealTimers()
    })

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const org = tenant.organisationId
      const db = t.database.db
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const depot = await makeLocation(db, org, { name: 'North Depot', timezone: 'Europe/London' })
      const worker = await makeDashboardUser(t, org, { role: 'WORKER', name: 'Wendy Worker' })
      const van = await makeVehicle(db, org, depot.id, { name: 'Van 1' })
      const shift = await makeShift(
        db,
        org,
        { userId: worker.id, locationId: depot.id, vehicleId: van.id },
        { day: 'THURSDAY', startTime: '08:00', endTime: '17:00' },
      )
      // One hour from `hour` (08 by default): a second visit of the same worker starts later, since
      // assignment refuses overlapping visits.
      const job = async (title: string, shiftId: string | null = shift.id, hour = '08') => {
        const post = await api.post('/jobs', { title, locationId: depot.id })
        expect(post.status, JSON.stringify(post.body)).toBe(201)
        const created = post.body.data.job
        const assigned = await admin.post(`/jobs/${created.id}/assign`, {
          userId: worker.id,
          shiftId,
          scheduledStart: at(`${hour}:00:00`),
          scheduledEnd: at(`${String(Number(hour) + 1).padStart(2, '0')}:00:00`),
        })
        expect(assigned.status, assigned.body.error).toBe(200)
        return created.id as string
      }
      const me = sessionClient(t, await signIn(t, worker))
      return { org, db, admin, api, me, job }
    }

    it('keeps when the start and completion happened, when they were received, and puts the real times in the events', async () => {
      const s = await setup()
      const id = await s.job('Boiler service')
      const before = (await outboxEvents(s.db, s.org)).length
      const started = await s.me.post(`/my/jobs/${id}/start`, { startedAt: '2026-11-26T16:30:00+00:00' })
      expect(started.status, started.body.error).toBe(200)
      expect(started.body.data.job).toMatchObject({ status: 'IN_PROGRESS', startedAt: at('16:30:00.000') })
      const completed = await s.me.post(`/my/jobs/${id}/complete`, { completedAt: at('16:31:30.000') })
      expect(completed.status, completed.body.error).toBe(200)
      expect(completed.body.data.job).toMatchObject({ status: 'COMPLETED', completedAt: at('16:31:30.000') })

      const job = (await s.api.get(`/jobs/${id}`)).body.data.job
      expect(job).toMatchObject({
        startedAt: at('16:30:00.000'),
        completedAt: at('16:31:30.000'),
        actualDuration: 90,
        startRecordedAt: NOW,
        completeRecordedAt: NOW,
      })
      const events = (await outboxEvents(s.db, s.org)).slice(before)
      expect(events.map((e) => [e.event, e.data.changedAt ?? e.data.completedAt, e.occurredAt])).toEqual([
        ['STATUS_CHANGED', at('16:30:00.000'), NOW],
        ['JOB_COMPLETED', at('16:31:30.000'), NOW],
        ['STATUS_CHANGED', at('16:31:30.000'), NOW],
      ])
    })

    it('takes the time now when none is sent, as before', async () => {
      const s = await setup()
      const id = await s.job('Now')
      expect((await s.me.post(`/my/jobs/${id}/start`)).body.data.job.startedAt).toBe(NOW)
      expect((await s.me.post(`/my/jobs/${id}/complete`, {})).body.data.job.completedAt).toBe(NOW)
      const job = (await s.api.get(`/jobs/${id}`)).body.data.job
      expect([job.startRecordedAt, job.completeRecordedAt]).toEqual([NOW, NOW])
    })

    it('refuses a time in the future beyond 2 minutes of clock difference, changing nothing', async () => {
      const s = await setup()
      const id = await s.job('Future')
      // The assignment's ETA is forecast in the background (JOB_ETA_CHANGED may land at any moment
      // under load): "changing nothing" is about what the refused starts would have written.
      const written = async () =>
        (await outboxEvents(s.db, s.org)).filter((e) => e.event !== 'JOB_ETA_CHANGED')
      const events = await written()
      for (const startedAt of [at('16:34:25'), '2027-01-01T00:00:00Z']) {
        const refused = await s.me.post(`/my/jobs/${id}/start`, { startedAt })
        expect([refused.status, refused.body.code], startedAt).toEqual([400, 'VALIDATION_ERROR'])
        expect(refused.body.details[0].path).toBe('/body/startedAt')
        expect(refused.body.error).toContain('future')
      }
      const notADate = await s.me.post(`/my/jobs/${id}/start`, { startedAt: 'at half past four' })
      expect([notADate.status, notADate.body.details[0].path]).toEqual([400, '/body/startedAt'])
      expect(await written()).toEqual(events)
      expect((await s.api.get(`/jobs/${id}`)).body.data.job.status).toBe('ASSIGNED')
      // A phone clock up to 2 minutes ahead is believed.
      const ahead = await s.me.post(`/my/jobs/${id}/start`, { startedAt: at('16:34:00') })
      expect([ahead.status, ahead.body.data.job.startedAt]).toEqual([200, at('16:34:00.000')])
    })

    it("refuses a time outside the worker's shift ± 30 min with 422 OUTSIDE_SHIFT", async () => {
      const s = await setup()
      const id = await s.job('Early')
      // The shift is Thursday 08:00–17:00: from 07:30 it counts; the Wednesday before does not.
      for (const startedAt of [at('07:29:59'), '2026-11-25T12:00:00Z']) {
        const refused = await s.me.post(`/my/jobs/${id}/start`, { startedAt })
        expect([refused.status, refused.body.code], startedAt).toEqual([422, 'OUTSIDE_SHIFT'])
        expect(refused.body.details[0].path).toBe('/body/startedAt')
        expect(refused.body.error).toContain('THURSDAY 08:00–17:00')
      }
      expect((await s.api.get(`/jobs/${id}`)).body.data.job.status).toBe('ASSIGNED')
      const accepted = await s.me.post(`/my/jobs/${id}/start`, { startedAt: at('07:30:00') })
      expect(accepted.status, accepted.body.error).toBe(200)

      // A job on no shift, of a worker with a shift: any of the worker's shifts holds the rule.
      const unshifted = await s.job('No shift', null, '10')
      const late = await s.me.post(`/my/jobs/${unshifted}/start`, { startedAt: at('06:00:00') })
      expect(late.body.code).toBe('OUTSIDE_SHIFT')
    })

    it('refuses a completion before the start, and the admin API takes the same times', async () => {
      const s = await setup()
      const id = await s.job('Order')
      const started = await s.admin.post(`/jobs/${id}/start`, { startedAt: at('15:00:00') })
      expect([started.status, started.body.data.job.startedAt]).toEqual([200, at('15:00:00.000')])
      const refused = await s.me.post(`/my/jobs/${id}/complete`, { completedAt: at('14:59:59') })
      expect([refused.status, refused.body.details[0].path]).toEqual([400, '/body/completedAt'])
      expect(refused.body.error).toContain('startedAt')
      expect((await s.api.get(`/jobs/${id}`)).body.data.job.status).toBe('IN_PROGRESS')
      const completed = await s.admin.post(`/jobs/${id}/complete`, { completedAt: at('15:45:00') })
      expect(completed.body.data.job).toMatchObject({
        status: 'COMPLETED',
        completedAt: at('15:45:00.000'),
        actualDuration: 2700,
        completeRecordedAt: NOW,
      })
      expect((await s.admin.post(`/jobs/${id}/complete`, { startedAt: at('15:00:00') })).status).toBe(400)
    })
  })
}
