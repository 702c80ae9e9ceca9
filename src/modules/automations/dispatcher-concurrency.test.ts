// Two dispatchers (as on two instances) on one PostgreSQL database share the outbox through
// FOR UPDATE SKIP LOCKED and deliver every (event, automation) pair exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabaseUrl, DIALECTS } from '../../../test/helpers.js'
import { type Receiver, startReceiver } from '../../../test/webhook-receiver.js'
import { createDatabase, type DatabaseHandle } from '../../db/database.js'
import { newId } from '../../db/ids.js'
import { createOrganisation } from '../organisations/service.js'
import { type DeliveryRequest, WebhookSender } from './delivery.js'
import { WebhookDispatcher } from './dispatcher.js'
import { createAutomation } from './service.js'

/** A sender that counts what it sends, to see that both dispatchers took part. */
class CountingSender extends WebhookSender {
  sent = 0
  override send(request: DeliveryRequest) {
    this.sent++
    return super.send(request)
  }
}

const EVENTS = 300

describe.runIf(DIALECTS.includes('postgres'))('postgres: two dispatchers on one database', () => {
  let database: { url: string; cleanup(): Promise<void> }
  let handles: DatabaseHandle[] = []
  let receiver: Receiver

  beforeAll(async () => {
    database = await createTestDatabaseUrl('postgres')
    handles = [
      createDatabase(database.url, { pgPoolSize: 4 }),
      createDatabase(database.url, { pgPoolSize: 4 }),
    ]
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver.close()
    for (const handle of handles) await handle.destroy()
    await database.cleanup()
  })

  it('delivers each event to each automation exactly once, sharing the work', async () => {
    const [first, second] = handles as [DatabaseHandle, DatabaseHandle]
    const org = await createOrganisation(first.db, { name: 'Shared outbox', plan: 'PRO' })
    const policy = { allowPrivate: true }
    for (const path of ['/a', '/b']) {
      await createAutomation(first.db, policy, org.id, {
        event: 'JOB_UPDATED',
        url: `${receiver.url}${path}`,
      })
    }
    const occurredAt = new Date().toISOString()
    await first.db
      .insertInto('outbox_events')
      .values(
        Array.from({ length: EVENTS }, (_, i) => ({
          id: newId(),
          organisation_id: org.id,
          event: 'JOB_UPDATED',
          data: JSON.stringify({ n: i }),
          occurred_at: occurredAt,
          dispatched_at: null,
        })),
      )
      .execute()

    const senders = [
      new CountingSender({ timeoutMs: 5000, allowPrivate: true }),
      new CountingSender({ timeoutMs: 5000, allowPrivate: true }),
    ]
    const dispatchers = [first, second].map(
      (handle, i) =>
        new WebhookDispatcher(handle.db, senders[i] as WebhookSender, {
          pollIntervalMs: 1000,
          concurrency: 8,
          retentionDays: 30,
        }),
    )
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.drain()))
    await Promise.all(senders.map((sender) => sender.close()))

    expect(receiver.received).toHaveLength(EVENTS * 2)
    const pairs = new Set(receiver.received.map((r) => `${r.path} ${r.json.data.n}`))
    expect(pairs.size).toBe(EVENTS * 2)
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(EVENTS * 2)
    expect(senders.every((sender) => sender.sent > 0)).toBe(true)

    const executions = await first.db
      .selectFrom('webhook_executions')
      .select(['status'])
      .where('organisation_id', '=', org.id)
      .execute()
    expect(executions).toHaveLength(EVENTS * 2)
    expect(executions.every((e) => e.status === 'SUCCESS')).toBe(true)
    const pending = await first.db
      .selectFrom('outbox_events')
      .select('id')
      .where('dispatched_at', 'is', null)
      .execute()
    expect(pending).toHaveLength(0)
  })
})
