// Customer emails (issue 29 §3): when an organisation turned them on, the customer of a job gets one
// email when it is en route (the tracking link and the arrival window) and one when it is completed.
//
// They ride the outbox with the webhooks and keep the webhooks' guarantee: the webhook dispatcher's
// claim — the one transaction that marks outbox events dispatched — also writes one PENDING message
// per JOB_EN_ROUTE or JOB_COMPLETED event that wants one (unique per event), and the email is sent
// after that commit; its outcome is recorded on the row. So a committed event is claimed once, by
// one instance, even across a crash; a second claim cannot make a second message (the unique index);
// and a message left PENDING by a process that died mid-send is marked FAILED ("interrupted"), never
// sent again — whether it reached the server is unknown, and a customer must not get it twice.
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely, Transaction } from 'kysely'
import { newId } from '../../db/ids.js'
import type {
  CustomerMessageKind,
  CustomerMessageRow,
  Database,
  Executor,
  OutboxEventRow,
} from '../../db/types.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import type { OutboxFollower } from '../automations/dispatcher.js'
import { timeZoneOfDepot } from '../locations/service.js'
import { composeMessage } from './compose.js'
import { SMTP_TIMEOUT_MS, type SmtpMailer } from './mailer.js'
import * as repository from './repository.js'
import type { CustomerMessage, CustomerMessageListQuery } from './schemas.js'

export const INTERRUPTED_MESSAGE_ERROR =
  'Interrupted: the service stopped while this email was being sent, so whether it reached the mail ' +
  'server is unknown; it was not sent again.'
const DAY_MS = 86_400_000

const KIND_OF_EVENT: Readonly<Record<string, CustomerMessageKind>> = {
  JOB_EN_ROUTE: 'EN_ROUTE',
  JOB_COMPLETED: 'COMPLETED',
}

interface EnRouteData {
  jobId: string
  trackingUrl?: string
  worker?: { firstName?: string }
}

export interface CustomerMailOptions {
  retentionDays: number
  /** A PENDING message older than this belongs to a process that stopped: marked FAILED. */
  interruptedAfterMs?: number
  /** The service's clock: whether an arrival window is today, in the depot's zone. */
  clock?: () => number
  logger?: FastifyBaseLogger
  /**
   * A completed job's proof as a PDF, sent with its COMPLETED email (proof/service.ts); when it cannot
   * be made, the email goes without it (and the log says why).
   */
  proofPdf?: (organisationId: string, jobId: string) => Promise<{ filename: string; content: Buffer }>
}

export class CustomerMail implements OutboxFollower {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly mailer: SmtpMailer,
    private readonly options: CustomerMailOptions,
  ) {}

  /** In the claim's transaction: the messages these events make, each sent after the commit. */
  async claim(
    trx: Transaction<Database>,
    events: readonly OutboxEventRow[],
    now: string,
  ): Promise<(() => Promise<void>)[]> {
    const rows: CustomerMessageRow[] = []
    for (const [organisationId, wanted] of byOrganisation(events.filter((e) => KIND_OF_EVENT[e.event]))) {
      const data = new Map(wanted.map((event) => [event.id, JSON.parse(event.data) as EnRouteData]))
      const contexts = await repository.findMessageContexts(trx, organisationId, [
        ...new Set([...data.values()].map((d) => d.jobId)),
      ])
      const contextOf = new Map(contexts.map((context) => [context.job_id, context]))
      const zoneOf = await timeZonesOf(trx, organisationId, contexts)
      const at = this.options.clock?.() ?? Date.parse(now)
      for (const event of wanted) {
        const row = messageOf(event, data.get(event.id) as EnRouteData, contextOf, zoneOf, { now, at })
        if (row) rows.push(row)
      }
    }
    const inserted = await repository.insertMessages(trx, rows)
    return inserted.map((row) => () => this.send(row))
  }

  private async send(row: CustomerMessageRow): Promise<void> {
    const attachments = row.kind === 'COMPLETED' ? await this.proofOf(row) : []
    const result = await this.mailer.send({
      to: row.recipient,
      subject: row.subject,
      text: row.body,
      messageId: `<${row.id}@fieldservice>`,
      ...(attachments.length > 0 && { attachments }),
    })
    await repository.completeMessage(this.db, row.id, {
      status: result.ok ? 'SENT' : 'FAILED',
      error: result.error,
      duration_ms: result.durationMs,
      completed_at: new Date().toISOString(),
    })
    if (!result.ok)
      this.options.logger?.warn({ message: row.id, error: result.error }, 'customer email failed')
  }

  private async proofOf(row: CustomerMessageRow) {
    if (!this.options.proofPdf) return []
    try {
      const proof = await this.options.proofPdf(row.organisation_id, row.job_id)
      return [{ ...proof, contentType: 'application/pdf' }]
    } catch (error) {
      this.options.logger?.warn({ err: error, message: row.id }, 'proof PDF not attached to the email')
      return []
    }
  }

  /** Once a minute, with the dispatcher's housekeeping: interrupted sends failed, old messages pruned. */
  async maintain(now: number): Promise<void> {
    const interruptedAfter = this.options.interruptedAfterMs ?? SMTP_TIMEOUT_MS * 3 + 60_000
    const at = new Date(now).toISOString()
    const failed = await repository.failInterruptedMessages(
      this.db,
      new Date(now - interruptedAfter).toISOString(),
      INTERRUPTED_MESSAGE_ERROR,
      at,
    )
    if (failed > 0) this.options.logger?.warn({ failed }, 'marked interrupted customer emails FAILED')
    await repository.pruneMessagesBefore(
      this.db,
      new Date(now - this.options.retentionDays * DAY_MS).toISOString(),
    )
  }

  close(): void {
    this.mailer.close()
  }
}

function byOrganisation(events: readonly OutboxEventRow[]): Map<string, OutboxEventRow[]> {
  const groups = new Map<string, OutboxEventRow[]>()
  for (const event of events)
    groups.set(event.organisation_id, [...(groups.get(event.organisation_id) ?? []), event])
  return groups
}

/** The time zone of each depot the jobs belong to (null: the organisation's default), looked up once. */
async function timeZonesOf(
  db: Executor,
  organisationId: string,
  contexts: readonly repository.MessageContextRow[],
): Promise<Map<string | null, string>> {
  const zones = new Map<string | null, string>()
  for (const { location_id } of contexts) {
    if (!zones.has(location_id))
      zones.set(location_id, await timeZoneOfDepot(db, organisationId, location_id))
  }
  return zones
}

/** The message an event makes, or null: switched off, or a customer without an email. */
function messageOf(
  event: OutboxEventRow,
  data: EnRouteData,
  contextOf: ReadonlyMap<string, repository.MessageContextRow>,
  zoneOf: ReadonlyMap<string | null, string>,
  { now, at }: { now: string; at: number },
): CustomerMessageRow | null {
  const kind = KIND_OF_EVENT[event.event] as CustomerMessageKind
  const context = contextOf.get(data.jobId)
  if (!context?.email) return null
  const on = kind === 'EN_ROUTE' ? context.notify_customer_en_route : context.notify_customer_completed
  if (!repository.isOn(on)) return null
  const composed = composeMessage(kind, {
    organisationName: context.organisation_name,
    customerName: context.customer_name,
    title: context.title,
    eta: context.eta,
    trackingUrl: data.trackingUrl ?? null,
    firstName: data.worker?.firstName || null,
    timeZone: zoneOf.get(context.location_id) ?? 'UTC',
    now: at,
  })
  return {
    id: newId(),
    organisation_id: event.organisation_id,
    event_id: event.id,
    job_id: data.jobId,
    kind,
    recipient: context.email,
    subject: composed.subject,
    body: composed.body,
    status: 'PENDING',
    error: null,
    duration_ms: null,
    created_at: now,
    completed_at: null,
  }
}

export function serializeCustomerMessage(row: CustomerMessageRow): CustomerMessage {
  return {
    id: row.id,
    eventId: row.event_id,
    jobId: row.job_id,
    kind: row.kind,
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    status: row.status,
    error: row.error,
    durationMs: row.duration_ms,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  }
}

export async function listCustomerMessages(
  db: Executor,
  organisationId: string,
  query: CustomerMessageListQuery,
): Promise<{ customerMessages: CustomerMessage[]; pagination: Pagination }> {
  const filters = { status: query.status, jobId: query.jobId }
  const [rows, total] = await Promise.all([
    repository.listMessages(db, organisationId, filters, { limit: query.limit, offset: offsetOf(query) }),
    repository.countMessages(db, organisationId, filters),
  ])
  return { customerMessages: rows.map(serializeCustomerMessage), pagination: paginationOf(query, total) }
}
