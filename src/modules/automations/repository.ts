// Automations and their execution log. Every query takes the organisation id, except the
// dispatcher's claims (dispatch-repository.ts), which work across organisations by design.
import type { Updateable } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { lockForUpdate } from '../../db/locking.js'
import type {
  AutomationRow,
  AutomationsTable,
  ExecutionStatus,
  Executor,
  WebhookExecutionRow,
} from '../../db/types.js'

export type AutomationUpdate = Updateable<AutomationsTable>

export interface AutomationFilters {
  event?: string
  isActive?: boolean
}

export interface ExecutionFilters {
  automationId?: string
  status?: ExecutionStatus
  event?: string
}

interface Page {
  limit: number
  offset: number
}

export async function insertAutomation(
  db: Executor,
  row: AutomationRow & { is_active: number },
): Promise<void> {
  await db.insertInto('automations').values(row).execute()
}

function automationsMatching(db: Executor, organisationId: string, filters: AutomationFilters) {
  let query = db.selectFrom('automations').where('organisation_id', '=', organisationId)
  if (filters.event !== undefined) query = query.where('event', '=', filters.event)
  if (filters.isActive !== undefined) query = query.where('is_active', '=', sqlBool(filters.isActive))
  return query
}

export async function listAutomations(
  db: Executor,
  organisationId: string,
  filters: AutomationFilters,
  page: Page,
): Promise<AutomationRow[]> {
  return automationsMatching(db, organisationId, filters)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countAutomations(
  db: Executor,
  organisationId: string,
  filters: AutomationFilters,
): Promise<number> {
  const row = await automationsMatching(db, organisationId, filters)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findAutomation(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AutomationRow | undefined> {
  const query = db
    .selectFrom('automations')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
  return (options.forUpdate ? lockForUpdate(db, query) : query).executeTakeFirst()
}

export async function updateAutomation(
  db: Executor,
  organisationId: string,
  id: string,
  changes: AutomationUpdate,
): Promise<void> {
  await db
    .updateTable('automations')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}

/** Deletes the automation; its executions go with it (ON DELETE CASCADE). */
export async function deleteAutomation(db: Executor, organisationId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('automations')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

function executionsMatching(db: Executor, organisationId: string, filters: ExecutionFilters) {
  let query = db.selectFrom('webhook_executions').where('organisation_id', '=', organisationId)
  if (filters.automationId !== undefined) query = query.where('automation_id', '=', filters.automationId)
  if (filters.status !== undefined) query = query.where('status', '=', filters.status)
  if (filters.event !== undefined) query = query.where('event', '=', filters.event)
  return query
}

export async function listExecutions(
  db: Executor,
  organisationId: string,
  filters: ExecutionFilters,
  page: Page,
): Promise<WebhookExecutionRow[]> {
  return executionsMatching(db, organisationId, filters)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countExecutions(
  db: Executor,
  organisationId: string,
  filters: ExecutionFilters,
): Promise<number> {
  const row = await executionsMatching(db, organisationId, filters)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findExecution(
  db: Executor,
  organisationId: string,
  automationId: string,
  id: string,
): Promise<WebhookExecutionRow | undefined> {
  return db
    .selectFrom('webhook_executions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('automation_id', '=', automationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function insertExecution(db: Executor, row: WebhookExecutionRow): Promise<void> {
  await db.insertInto('webhook_executions').values(row).execute()
}

export interface ExecutionOutcome {
  status: Exclude<ExecutionStatus, 'PENDING'>
  http_status: number | null
  error: string | null
  duration_ms: number
  response_body: string | null
  response_headers: string | null
  completed_at: string
}

/** Records how a delivery ended; only a PENDING row changes (a swept one keeps its verdict). */
export async function completeExecution(
  db: Executor,
  organisationId: string,
  id: string,
  outcome: ExecutionOutcome,
): Promise<void> {
  await db
    .updateTable('webhook_executions')
    .set(outcome)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .execute()
}
