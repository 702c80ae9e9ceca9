// Idempotency-Key while the first request really is still running: held up by a row lock another
// transaction keeps (PostgreSQL; SQLite runs one write at a time, so a request that holds the database
// is never overtaken). A retry then gets 409; and a request that outlives its claim (a retry judged it
// dead and took the key over) gives way, undone, so the change is still made once.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outboxEvents } from '../../test/factories.js'
import {
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../test/helpers.js'

const describeOnPostgres = DIALECTS.includes('postgres') ? describe : describe.skip

describeOnPostgres('postgres: Idempotency-Key while the first request waits on a lock', () => {
  let t: TestContext
  let tenant: TestTenant

  beforeAll(async () => {
    t = await createTestApp('postgres')
    tenant = await createTenant(t)
  })
  afterAll(() => t.close())

  const keyed = (key: string) => client(t, { ...tenant.headers, 'idempotency-key': key })
  const claimOf = async (key: string) =>
    (
      await t.database.db
        .selectFrom('idempotency_claims')
        .select(['claim_id', 'status'])
        .where('organisation_id', '=', tenant.organisationId)
        .where('key', '=', key)
        .executeTakeFirst()
    )?.claim_id
  const until = async (what: () => Promise<boolean>) => {
    for (let i = 0; i < 500 && !(await what()); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  }

  /** A job whose row another transaction keeps locked until `release()`. */
  async function lockedJob() {
    const job = (await client(t, tenant.headers).post('/jobs', { title: 'Leak' })).body.data.job as {
      id: string
    }
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let locked = () => {}
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve
    })
    const lock = t.database.db.transaction().execute(async (trx) => {
      await sql`SELECT id FROM jobs WHERE id = ${job.id} FOR UPDATE`.execute(trx)
      locked()
      await held
    })
    await isLocked
    return {
      job,
      release: async () => {
        release()
        await lock
      },
    }
  }

  it('answers 409 IDEMPOTENCY_KEY_IN_USE to a retry, then replays the first answer', async () => {
    const { job, release } = await lockedJob()
    const patch = { title: 'After the lock' }
    const first = keyed('slow-patch').patch(`/jobs/${job.id}`, patch)
    await until(async () => (await claimOf('slow-patch')) !== undefined)
    const busy = await keyed('slow-patch').patch(`/jobs/${job.id}`, patch)
    expect([busy.status, busy.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE'])
    await release()
    const answer = await first
    expect([answer.status, answer.body.data.job.title]).toEqual([200, 'After the lock'])
    const replay = await keyed('slow-patch').patch(`/jobs/${job.id}`, patch)
    expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 'true'])
    expect(replay.body).toEqual(answer.body)
  })

  it('makes the change once when a retry takes over the claim of a request that outlived it', async () => {
    const { job, release } = await lockedJob()
    const patch = { title: 'Changed once' }
    const first = keyed('outlived').patch(`/jobs/${job.id}`, patch)
    await until(async () => (await claimOf('outlived')) !== undefined)
    const claimed = await claimOf('outlived')
    // A minute later the claim looks abandoned: the retry takes it over and waits on the lock too.
    await t.database.db
      .updateTable('idempotency_claims')
      .set({ locked_at: new Date(Date.now() - 61_000).toISOString() })
      .where('key', '=', 'outlived')
      .execute()
    const retry = keyed('outlived').patch(`/jobs/${job.id}`, patch)
    await until(async () => (await claimOf('outlived')) !== claimed)
    await release()
    const [late, taken] = await Promise.all([first, retry])
    expect([late.status, late.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE'])
    expect(late.body.error).toMatch(/took it over; nothing was done/)
    expect([taken.status, taken.body.data.job.title]).toEqual([200, 'Changed once'])
    const updates = (await outboxEvents(t.database.db, tenant.organisationId)).filter(
      (e) => e.event === 'JOB_UPDATED' && e.data.jobId === job.id,
    )
    expect(updates).toHaveLength(1)
    const replay = await keyed('outlived').patch(`/jobs/${job.id}`, patch)
    expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 'true'])
    expect(replay.body).toEqual(taken.body)
  })
})
