import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { CustomerRow, CustomerUpdate, Database, Executor, NewCustomer } from '../../db/types.js'
import { toDecimalString } from '../../db/values.js'
import { guardExternalId, notFound, validationError } from '../../http/errors.js'
import { listOrderOf, readPage } from '../../http/list-order.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { ChangeFeedPagination } from '../../http/schemas.js'
import type { CustomerFound } from '../search/schemas.js'
import type { SearchTerms } from '../search/terms.js'
import * as repository from './repository.js'
import type { CreateCustomerBody, Customer, CustomerListQuery, UpdateCustomerBody } from './schemas.js'
import * as searchRepository from './search-repository.js'
import { serializeCustomer } from './serialize.js'

export const CUSTOMER_DEFAULTS = {
  address: '',
  serviceDuration: 900,
  priority: 'NORMAL',
  timeWindowType: 'HARD',
  operationalStart: '00:00',
  operationalEnd: '23:59',
} as const

export async function listCustomers(
  db: Executor,
  organisationId: string,
  query: CustomerListQuery,
  settleMs = 0,
): Promise<{ customers: Customer[]; pagination: ChangeFeedPagination }> {
  const search = query.search?.trim() || undefined
  const order = listOrderOf(query, settleMs)
  if (order.by === 'updated' || order.after) {
    const { rows, pagination } = await readPage(
      query,
      order,
      (limit) => repository.listCustomers(db, organisationId, search, order, limit),
      () => repository.countCustomers(db, organisationId, search, order),
    )
    return { customers: rows.map(serializeCustomer), pagination }
  }
  const page = { limit: query.limit, offset: offsetOf(query) }
  if (search) {
    const found = await repository.searchCustomers(db, organisationId, search, page)
    const total = found.total ?? (await repository.countCustomers(db, organisationId, search))
    return { customers: found.rows.map(serializeCustomer), pagination: paginationOf(query, total) }
  }
  const [rows, total] = await Promise.all([
    repository.listCustomers(db, organisationId, undefined, order, query.limit),
    repository.countCustomers(db, organisationId),
  ])
  return { customers: rows.map(serializeCustomer), pagination: paginationOf(query, total) }
}

export async function getCustomer(db: Executor, organisationId: string, id: string): Promise<Customer> {
  const row = await repository.findCustomer(db, organisationId, id)
  if (!row) throw notFound('Customer')
  return serializeCustomer(row)
}

/**
 * Opening hours are a window within one day: operationalStart strictly before operationalEnd
 * ("00:00"–"23:59" when unrestricted). 400 names the field the request set (operationalEnd when it
 * set both). Checked when a write sets either, so an older row can still take unrelated changes.
 */
function assertOpeningHours(
  input: { operationalStart?: string; operationalEnd?: string },
  start: string,
  end: string,
): void {
  if (start < end) return
  if (input.operationalEnd !== undefined)
    throw validationError('/body/operationalEnd', `must be after operationalStart (${start})`)
  throw validationError('/body/operationalStart', `must be before operationalEnd (${end})`)
}

export async function createCustomer(
  db: Executor,
  organisationId: string,
  input: CreateCustomerBody,
): Promise<Customer> {
  const row = newCustomerRow(organisationId, input)
  await guardExternalId('customers', 'customer', input.externalId, () => repository.insertCustomer(db, row))
  return getCustomer(db, organisationId, row.id)
}

export async function updateCustomer(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: UpdateCustomerBody,
): Promise<Customer> {
  return guardExternalId('customers', 'customer', input.externalId, () =>
    db.transaction().execute(async (trx) => {
      const current = await repository.findCustomer(trx, organisationId, id)
      if (!current) throw notFound('Customer')
      await applyCustomerUpdate(trx, organisationId, current, input)
      return getCustomer(trx, organisationId, id)
    }),
  )
}

/**
 * PATCH's rules and write for a customer already read: writes (and moves updatedAt) only when a value
 * really changes; answers whether it did. With `dryRun`, checks and answers without writing (imports).
 */
export async function applyCustomerUpdate(
  trx: Executor,
  organisationId: string,
  current: CustomerRow,
  input: UpdateCustomerBody,
  dryRun = false,
): Promise<boolean> {
  const requested: CustomerUpdate = {}
  if (input.name !== undefined) requested.name = input.name
  if (input.address !== undefined) requested.address = input.address
  if (input.latitude !== undefined) requested.latitude = toDecimalString(input.latitude)
  if (input.longitude !== undefined) requested.longitude = toDecimalString(input.longitude)
  if (input.serviceDuration !== undefined) requested.service_duration = input.serviceDuration
  if (input.priority !== undefined) requested.priority = input.priority
  if (input.timeWindowType !== undefined) requested.time_window_type = input.timeWindowType
  if (input.operationalStart !== undefined) requested.operational_start = input.operationalStart
  if (input.operationalEnd !== undefined) requested.operational_end = input.operationalEnd
  if (input.email !== undefined) requested.email = input.email
  if (input.phone !== undefined) requested.phone = input.phone
  if (input.notes !== undefined) requested.notes = input.notes
  if (input.externalId !== undefined) requested.external_id = input.externalId
  if (input.operationalStart !== undefined || input.operationalEnd !== undefined) {
    assertOpeningHours(
      input,
      requested.operational_start ?? current.operational_start,
      requested.operational_end ?? current.operational_end,
    )
  }
  const changed = Object.entries(requested).some(
    ([column, value]) => current[column as keyof typeof current] !== value,
  )
  if (changed && !dryRun)
    await repository.updateCustomer(trx, organisationId, current.id, { ...requested, updated_at: nowIso() })
  return changed
}

/** A customer row by its externalId (imports: upsert by the caller's reference). */
export async function findCustomersByExternalIds(
  db: Executor,
  organisationId: string,
  externalIds: readonly string[],
): Promise<CustomerRow[]> {
  return repository.findCustomersByExternalIds(db, organisationId, externalIds)
}

/**
 * A new customer from a create body, checked as POST /customers checks it, without writing: the
 * import's dry run, and (written with insertCustomerRows) its batches.
 */
export function newCustomerRow(organisationId: string, input: CreateCustomerBody): NewCustomer {
  const operationalStart = input.operationalStart ?? CUSTOMER_DEFAULTS.operationalStart
  const operationalEnd = input.operationalEnd ?? CUSTOMER_DEFAULTS.operationalEnd
  assertOpeningHours(input, operationalStart, operationalEnd)
  const now = nowIso()
  return {
    id: newId(),
    organisation_id: organisationId,
    name: input.name,
    address: input.address ?? CUSTOMER_DEFAULTS.address,
    latitude: toDecimalString(input.latitude),
    longitude: toDecimalString(input.longitude),
    service_duration: input.serviceDuration ?? CUSTOMER_DEFAULTS.serviceDuration,
    priority: input.priority ?? CUSTOMER_DEFAULTS.priority,
    time_window_type: input.timeWindowType ?? CUSTOMER_DEFAULTS.timeWindowType,
    operational_start: operationalStart,
    operational_end: operationalEnd,
    email: input.email ?? null,
    phone: input.phone ?? null,
    notes: input.notes ?? null,
    external_id: input.externalId ?? null,
    created_at: now,
    updated_at: now,
  }
}

/** Writes new customers made by newCustomerRow (one statement per row, in the caller's transaction). */
export async function insertCustomerRows(db: Executor, rows: readonly NewCustomer[]): Promise<void> {
  for (const row of rows) await repository.insertCustomer(db, row)
}

/**
 * Writes a customer as given (its id and timestamps included): for the demo organisation (cli/demo-seed.ts), which writes a history no request could make; no rule is
 * checked, the demo's data is known good.
 */
export async function seedCustomer(db: Executor, row: NewCustomer): Promise<void> {
  await repository.insertCustomer(db, row)
}

/** The header search's customers, best first (search-repository.ts). */
export async function findCustomersForSearch(
  db: Executor,
  organisationId: string,
  terms: SearchTerms,
  limit: number,
): Promise<CustomerFound[]> {
  return searchRepository.findCustomersMatching(db, organisationId, terms, limit)
}

/** A page of customers as the API shows them, in id order after `after` (CSV export). */
export async function listCustomersById(
  db: Executor,
  organisationId: string,
  search: string | undefined,
  after: string | null,
  limit: number,
): Promise<Customer[]> {
  const rows = await repository.listCustomersById(
    db,
    organisationId,
    search?.trim() || undefined,
    after,
    limit,
  )
  return rows.map(serializeCustomer)
}
