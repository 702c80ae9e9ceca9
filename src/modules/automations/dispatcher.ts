// The webhook dispatcher: turns committed outbox events into signed deliveries.
//
// A claim is one transaction: lock the oldest undelivered events (SKIP LOCKED on PostgreSQL, so any
// number of instances share the work), write one PENDING execution per matching active automation,
// and mark the events dispatched. The requests go out after the commit, and each execution records
// its outcome. So an event committed before a crash is claimed after the restart, and no (event,
// automation) pair is ever sent twice: the unique first-delivery index forbids a second claim, and
// an execution left PENDING by a process that died mid-request is marked FAILED ("interrupted"),
// not re-sent — whether it arrived is unknown, and the spec forbids retries. Redelivery is manual.

import type { FastifyBaseLogger } from 'fastify'
import type { Kysely, Transaction } from 'kysely'
import { isDatabaseUnavailable } from '../../db/database.js'
import { newId } from '../../db/ids.js'
import type { Database, OutboxEventRow, WebhookExecutionRow } from '../../db/types.js'
import { EVENT_FEED_DAYS } from '../events/feed-schemas.js'
import type { WebhookSender } from './delivery.js'
import * as dispatch from './dispatch-repository.js'
import { completeExecution } from './repository.js'
import { signingSecrets } from './serialize.js'
import { signedHeaders } from './signature.js'

/**
 * Other work the outbox drives with the same guarantee as the webhooks (customer emails): written in
 * the claim's transaction, so each event makes it once, and done after the commit.
 */
export interface OutboxFollower {
  /** Writes what `events` make (in `trx`) and answers the tasks to run once the claim has committed. */
  claim(
    trx: Transaction<Database>,
    events: readonly OutboxEventRow[],
    now: string,
  ): Promise<(() => Promise<void>)[]>
  /** With the dispatcher's housekeeping, about once a minute. */
  maintain(now: number): Promise<void>
  close(): void
}

export interface DispatcherOptions {
  pollIntervalMs: number
  /** Events claimed at once, and so (about) the deliveries in flight. */
  concurrency: number
  retentionDays: number
  /** A PENDING execution older than this belongs to a process that stopped: marked FAILED. */
  interruptedAfterMs?: number
  logger?: FastifyBaseLogger
  followers?: readonly OutboxFollower[]
}

export interface ClaimedDelivery {
  row: WebhookExecutionRow
  secrets: string[]
}

export const INTERRUPTED_ERROR =
  'Interrupted: the service stopped while this delivery was in flight, so whether it arrived is ' +
  'unknown; it was not retried. Redeliver it if needed.'
const MAINTENANCE_INTERVAL_MS = 60_000
const PRUNE_BATCH = 1000
const DAY_MS = 86_400_000

/** The body of every webhook: `{ event, timestamp, data }`, with data exactly as recorded. */
export function payloadOf(event: Pick<OutboxEventRow, 'event' | 'occurred_at' | 'data'>): string {
  return `{"event":${JSON.stringify(event.event)},"timestamp":${JSON.stringify(event.occurred_at)},"data":${event.data}}`
}

/** Sends one execution and records the outcome; returns the finished row. */
export async function deliver(
  db: Kysely<Database>,
  sender: WebhookSender,
  { row, secrets }: ClaimedDelivery,
): Promise<WebhookExecutionRow> {
  const headers = signedHeaders(secrets, row.webhook_id, row.request_body)
  const result = await sender.send({
    url: row.url,
    body: row.request_body,
    headers: { ...headers },
    execution: {
      organisationId: row.organisation_id,
      automationId: row.automation_id,
      executionId: row.id,
      event: row.event,
      redeliveryOf: row.redelivery_of,
    },
  })
  const outcome = {
    status: result.status,
    http_status: result.httpStatus,
    error: result.error,
    duration_ms: result.durationMs,
    response_body: result.responseBody,
    response_headers: result.responseHeaders === null ? null : JSON.stringify(result.responseHeaders),
    completed_at: new Date().toISOString(),
  }
  await completeExecution(db, row.organisation_id, row.id, outcome)
  return { ...row, ...outcome }
}

export class WebhookDispatcher {
  private running = false
  private timer: NodeJS.Timeout | undefined
  private ticking: Promise<number> | null = null
  /** The last round failed (a database outage, usually): logged once, not every poll. */
  private failing = false

  /** Whether the last round failed; true until a round succeeds again. */
  get isFailing(): boolean {
    return this.failing
  }
  private tickAgain = false
  private wakeScheduled = false
  private lastMaintenance = 0
  private readonly inFlight = new Set<Promise<void>>()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sender: WebhookSender,
    private readonly options: DispatcherOptions,
  ) {}

  get deliveriesInFlight(): number {
    return this.inFlight.size
  }

  /** Polls for events (other processes commit some too) until stop(). */
  start(): void {
    if (this.running) return
    this.running = true
    this.schedule(0)
  }

  /** Called after a write commits: look for its events now rather than at the next poll. */
  wake(): void {
    if (!this.running || this.wakeScheduled) return
    this.wakeScheduled = true
    setImmediate(() => {
      this.wakeScheduled = false
      void this.tick()
    })
  }

  /** Stops polling and waits for the deliveries in flight to finish. */
  async stop(): Promise<void> {
    this.running = false
    clearTimeout(this.timer)
    await this.ticking
    await Promise.allSettled([...this.inFlight])
  }

  /** Delivers everything pending, waiting for each request: for tests and one-off runs. */
  async drain(): Promise<void> {
    for (;;) {
      const claimed = await this.tick()
      await Promise.allSettled([...this.inFlight])
      if (claimed === 0 && this.inFlight.size === 0) return
    }
  }

  /** One round: housekeeping when due, then claim and launch deliveries while there is room. */
  tick(): Promise<number> {
    if (this.ticking) {
      this.tickAgain = true
      return this.ticking
    }
    this.ticking = (async () => {
      let claimed = 0
      try {
        do {
          this.tickAgain = false
          await this.maintain()
          claimed += await this.claimAndLaunch()
        } while (this.tickAgain)
        if (this.failing) {
          this.failing = false
          this.options.logger?.info('webhook dispatch works again')
        }
      } catch (error) {
        // An outage fails every poll: say so once, then quietly until a round succeeds.
        if (this.failing) this.options.logger?.debug({ err: error }, 'webhook dispatch still failing')
        else this.options.logger?.warn({ err: error }, 'webhook dispatch failed; retrying at every poll')
        this.failing = true
      } finally {
        this.ticking = null
      }
      return claimed
    })()
    return this.ticking
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(async () => {
      await this.tick()
      if (this.running) this.schedule(this.options.pollIntervalMs)
    }, delayMs)
    this.timer.unref()
  }

  private async claimAndLaunch(): Promise<number> {
    let claimed = 0
    for (;;) {
      const room = this.options.concurrency - this.inFlight.size
      if (room <= 0) return claimed
      const { events, deliveries, tasks } = await this.claim(room)
      claimed += events
      for (const delivery of deliveries) this.launch(delivery)
      for (const task of tasks) this.launchTask(task)
      if (events < room) return claimed
    }
  }

  private launch(delivery: ClaimedDelivery): void {
    const sending: Promise<void> = deliver(this.db, this.sender, delivery)
      .then(
        (row) => this.options.logger?.debug({ execution: row.id, status: row.status }, 'webhook delivered'),
        (error) => {
          // The POST went out; recording its outcome failed. The sweep for interrupted deliveries
          // marks it FAILED later. A database outage is expected to do this: warn, not error.
          const level = isDatabaseUnavailable(error) ? 'warn' : 'error'
          this.options.logger?.[level](
            { err: error, execution: delivery.row.id },
            'webhook delivery not recorded',
          )
        },
      )
      .finally(() => {
        this.inFlight.delete(sending)
        this.wake()
      })
    this.inFlight.add(sending)
  }

  /** A follower's task after the claim committed; its failure is logged, never retried here. */
  private launchTask(task: () => Promise<void>): void {
    const running: Promise<void> = task()
      .catch((error) => this.options.logger?.error({ err: error }, 'outbox follower task failed'))
      .finally(() => {
        this.inFlight.delete(running)
        this.wake()
      })
    this.inFlight.add(running)
  }

  private claim(
    limit: number,
  ): Promise<{ events: number; deliveries: ClaimedDelivery[]; tasks: (() => Promise<void>)[] }> {
    return this.db.transaction().execute(async (trx) => {
      const events = await dispatch.claimPendingEvents(trx, limit)
      if (events.length === 0) return { events: 0, deliveries: [], tasks: [] }
      const automations = await dispatch.findActiveAutomations(trx, events)
      const now = new Date().toISOString()
      const deliveries: ClaimedDelivery[] = []
      for (const event of events) {
        const body = payloadOf(event)
        for (const automation of automations) {
          if (automation.organisation_id !== event.organisation_id || automation.event !== event.event)
            continue
          const id = newId()
          const row: WebhookExecutionRow = {
            id,
            organisation_id: event.organisation_id,
            automation_id: automation.id,
            event_id: event.id,
            webhook_id: `msg_${id}`,
            event: event.event,
            url: automation.url,
            status: 'PENDING',
            http_status: null,
            error: null,
            duration_ms: null,
            request_body: body,
            response_body: null,
            response_headers: null,
            redelivery_of: null,
            created_at: now,
            completed_at: null,
          }
          deliveries.push({ row, secrets: signingSecrets(automation, now) })
        }
      }
      if (deliveries.length > 0) {
        await trx
          .insertInto('webhook_executions')
          .values(deliveries.map((delivery) => delivery.row))
          .execute()
      }
      const tasks: (() => Promise<void>)[] = []
      for (const follower of this.options.followers ?? [])
        tasks.push(...(await follower.claim(trx, events, now)))
      await dispatch.markDispatched(
        trx,
        events.map((event) => event.id),
        now,
      )
      return { events: events.length, deliveries, tasks }
    })
  }

  /** Once a minute: fail executions orphaned by a stopped process, prune what retention allows. */
  private async maintain(): Promise<void> {
    const now = Date.now()
    if (now - this.lastMaintenance < MAINTENANCE_INTERVAL_MS) return
    this.lastMaintenance = now
    const interruptedAfter = this.options.interruptedAfterMs ?? this.sender.timeoutMs + 60_000
    const at = new Date(now).toISOString()
    const interrupted = await dispatch.failInterruptedExecutions(
      this.db,
      new Date(now - interruptedAfter).toISOString(),
      INTERRUPTED_ERROR,
      at,
    )
    if (interrupted > 0)
      this.options.logger?.warn({ interrupted }, 'marked interrupted webhook deliveries FAILED')
    for (const follower of this.options.followers ?? []) await follower.maintain(now)
    // The event feed (GET /events) promises EVENT_FEED_DAYS of events whatever the delivery logs keep.
    const days = {
      webhook_executions: this.options.retentionDays,
      outbox_events: Math.max(this.options.retentionDays, EVENT_FEED_DAYS),
    }
    for (const table of ['webhook_executions', 'outbox_events'] as const) {
      const cutoff = new Date(now - days[table] * DAY_MS).toISOString()
      for (let round = 0; round < 20; round++) {
        if ((await dispatch.pruneBefore(this.db, table, cutoff, PRUNE_BATCH)) < PRUNE_BATCH) break
      }
    }
  }
}
