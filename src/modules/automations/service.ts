// Automations (spec §6: trigger event → Send Webhook → URL → active) and their execution logs.
// URLs are checked when saved and again at each delivery (target.ts); the signing secret is
// returned once, by create and rotate.
import type { Kysely } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { newId, nowIso } from '../../db/ids.js'
import type { AutomationRow, Database, Executor } from '../../db/types.js'
import { AppError, notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import type { WebhookSender } from './delivery.js'
import { deliver } from './dispatcher.js'
import * as repository from './repository.js'
import {
  type Automation,
  type AutomationListQuery,
  type CreateAutomationBody,
  DEFAULT_GRACE_PERIOD_SECONDS,
  type Execution,
  type ExecutionListQuery,
  type RotateSecretBody,
  type UpdateAutomationBody,
} from './schemas.js'
import { serializeAutomation, serializeExecution, signingSecrets } from './serialize.js'
import { generateSigningSecret } from './signature.js'
import { assertPublicTarget, parseWebhookUrl } from './target.js'

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: http and non-public targets are accepted. */
  allowPrivate: boolean
}

async function checkedUrl(raw: string, policy: TargetPolicy): Promise<string> {
  const url = parseWebhookUrl(raw, policy.allowPrivate)
  await assertPublicTarget(url, policy.allowPrivate)
  return url.href
}

async function findOrThrow(db: Executor, organisationId: string, id: string, forUpdate = false) {
  const row = await repository.findAutomation(db, organisationId, id, { forUpdate })
  if (!row) throw notFound('Automation')
  return row
}

export async function listAutomations(
  db: Executor,
  organisationId: string,
  query: AutomationListQuery,
): Promise<{ automations: Automation[]; pagination: Pagination }> {
  const filters = { event: query.event, isActive: query.isActive }
  const [rows, total] = await Promise.all([
    repository.listAutomations(db, organisationId, filters, { limit: query.limit, offset: offsetOf(query) }),
    repository.countAutomations(db, organisationId, filters),
  ])
  return { automations: rows.map((row) => serializeAutomation(row)), pagination: paginationOf(query, total) }
}

export async function getAutomation(db: Executor, organisationId: string, id: string): Promise<Automation> {
  return serializeAutomation(await findOrThrow(db, organisationId, id))
}

export async function createAutomation(
  db: Executor,
  policy: TargetPolicy,
  organisationId: string,
  input: CreateAutomationBody,
): Promise<{ automation: Automation; secret: string }> {
  const url = await checkedUrl(input.url, policy)
  const now = nowIso()
  const row: AutomationRow & { is_active: number } = {
    id: newId(),
    organisation_id: organisationId,
    name: input.name ?? `${input.event} webhook`,
    event: input.event,
    action: input.action ?? 'SEND_WEBHOOK',
    url,
    is_active: (input.isActive ?? true) ? 1 : 0,
    secret: generateSigningSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    created_at: now,
    updated_at: now,
  }
  await repository.insertAutomation(db, row)
  return { automation: serializeAutomation(row, now), secret: row.secret }
}

export async function updateAutomation(
  db: Kysely<Database>,
  policy: TargetPolicy,
  organisationId: string,
  id: string,
  input: UpdateAutomationBody,
): Promise<Automation> {
  const url = input.url === undefined ? undefined : await checkedUrl(input.url, policy)
  return db.transaction().execute(async (trx) => {
    const current = await findOrThrow(trx, organisationId, id, true)
    const changes: repository.AutomationUpdate = {}
    if (input.name !== undefined && input.name !== current.name) changes.name = input.name
    if (input.event !== undefined && input.event !== current.event) changes.event = input.event
    if (url !== undefined && url !== current.url) changes.url = url
    if (input.isActive !== undefined && input.isActive !== Boolean(current.is_active)) {
      changes.is_active = sqlBool(input.isActive)
    }
    if (Object.keys(changes).length === 0) return serializeAutomation(current)
    changes.updated_at = nowIso()
    await repository.updateAutomation(trx, organisationId, id, changes)
    return serializeAutomation({ ...current, ...changes } as AutomationRow)
  })
}

export function setAutomationActive(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  isActive: boolean,
): Promise<Automation> {
  // No URL in the input, so the target policy is never consulted.
  return updateAutomation(db, { allowPrivate: false }, organisationId, id, { isActive })
}

export async function rotateAutomationSecret(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: RotateSecretBody,
): Promise<{ automation: Automation; secret: string }> {
  const grace = input.gracePeriodSeconds ?? DEFAULT_GRACE_PERIOD_SECONDS
  return db.transaction().execute(async (trx) => {
    const current = await findOrThrow(trx, organisationId, id, true)
    const now = new Date()
    const changes = {
      secret: generateSigningSecret(),
      previous_secret: grace > 0 ? current.secret : null,
      previous_secret_expires_at: grace > 0 ? new Date(now.getTime() + grace * 1000).toISOString() : null,
      updated_at: now.toISOString(),
    }
    await repository.updateAutomation(trx, organisationId, id, changes)
    return { automation: serializeAutomation({ ...current, ...changes }), secret: changes.secret }
  })
}

export async function deleteAutomation(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<{ id: string; deletedAt: string }> {
  if (!(await repository.deleteAutomation(db, organisationId, id))) throw notFound('Automation')
  return { id, deletedAt: nowIso() }
}

/** The organisation's execution log; with `automationId`, one automation's (404 if it is not theirs). */
export async function listExecutions(
  db: Executor,
  organisationId: string,
  query: ExecutionListQuery,
  options: { automationMustExist?: boolean } = {},
): Promise<{ executions: Execution[]; pagination: Pagination }> {
  if (options.automationMustExist && query.automationId !== undefined) {
    await findOrThrow(db, organisationId, query.automationId)
  }
  const filters = { automationId: query.automationId, status: query.status, event: query.event }
  const [rows, total] = await Promise.all([
    repository.listExecutions(db, organisationId, filters, { limit: query.limit, offset: offsetOf(query) }),
    repository.countExecutions(db, organisationId, filters),
  ])
  return { executions: rows.map(serializeExecution), pagination: paginationOf(query, total) }
}

export async function getExecution(
  db: Executor,
  organisationId: string,
  automationId: string,
  id: string,
): Promise<Execution> {
  const row = await repository.findExecution(db, organisationId, automationId, id)
  if (!row) throw notFound('Execution')
  return serializeExecution(row)
}

/**
 * Sends an execution's event again, now, to the automation's current URL: the same body and
 * `webhook-id` (so receivers can deduplicate), signed afresh, recorded as a new execution.
 */
export async function redeliverExecution(
  db: Kysely<Database>,
  sender: WebhookSender,
  organisationId: string,
  automationId: string,
  id: string,
): Promise<Execution> {
  const original = await repository.findExecution(db, organisationId, automationId, id)
  if (!original) throw notFound('Execution')
  if (original.status === 'PENDING') {
    throw new AppError('CONFLICT', 'This execution is still in flight; redeliver it once it has finished')
  }
  const automation = await findOrThrow(db, organisationId, automationId)
  const now = nowIso()
  const row = {
    ...original,
    id: newId(),
    url: automation.url,
    status: 'PENDING' as const,
    http_status: null,
    error: null,
    duration_ms: null,
    response_body: null,
    response_headers: null,
    redelivery_of: original.id,
    created_at: now,
    completed_at: null,
  }
  await repository.insertExecution(db, row)
  return serializeExecution(await deliver(db, sender, { row, secrets: signingSecrets(automation, now) }))
}
