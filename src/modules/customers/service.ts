import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { CustomerUpdate, Database, Executor, NewCustomer } from '../../db/types.js'
import { toDecimalString } from '../../db/values.js'
import { notFound, validationError } from '../../http/errors.js'
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
  const operationalStart = input.operationalStart ?? CUSTOMER_DEFAULTS.operationalStart
  const operationalEnd = input.operationalEnd ?? CUSTOMER_DEFAULTS.operationalEnd
  assertOpeningHours(input, operationalStart, operationalEnd)
  const now = nowIso()
  const row: NewCustomer = {
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
    created_at: now,
    updated_at: now,
  }
  await repository.insertCustomer(db, row)
  return getCustomer(db, organisationId, row.id)
}

export async function updateCustomer(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: UpdateCustomerBody,
): Promise<Customer> {
  return db.transaction().execute(async (trx) => {
    const current = await repository.findCustomer(trx, organisationId, id)
    if (!current) throw notFound('Customer')
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
    if (changed)
      await repository.updateCustomer(trx, organisationId, id, { ...requested, updated_at: nowIso() })
    return getCustomer(trx, organisationId, id)
  })
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
