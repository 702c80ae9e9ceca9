import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { CustomerUpdate, Database, Executor, NewCustomer } from '../../db/types.js'
import { toDecimalString } from '../../db/values.js'
import { notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import * as repository from './repository.js'
import type { CreateCustomerBody, Customer, CustomerListQuery, UpdateCustomerBody } from './schemas.js'
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
): Promise<{ customers: Customer[]; pagination: Pagination }> {
  const search = query.search?.trim() || undefined
  const page = { limit: query.limit, offset: offsetOf(query) }
  if (search) {
    const found = await repository.searchCustomers(db, organisationId, search, page)
    const total = found.total ?? (await repository.countCustomers(db, organisationId, search))
    return { customers: found.rows.map(serializeCustomer), pagination: paginationOf(query, total) }
  }
  const [rows, total] = await Promise.all([
    repository.listCustomers(db, organisationId, page),
    repository.countCustomers(db, organisationId),
  ])
  return { customers: rows.map(serializeCustomer), pagination: paginationOf(query, total) }
}

export async function getCustomer(db: Executor, organisationId: string, id: string): Promise<Customer> {
  const row = await repository.findCustomer(db, organisationId, id)
  if (!row) throw notFound('Customer')
  return serializeCustomer(row)
}

/** The customer's default service duration, or undefined when it is not in this organisation. */
export async function findCustomerServiceDuration(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<number | undefined> {
  return (await repository.findCustomer(db, organisationId, id))?.service_duration
}

export async function createCustomer(
  db: Executor,
  organisationId: string,
  input: CreateCustomerBody,
): Promise<Customer> {
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
    operational_start: input.operationalStart ?? CUSTOMER_DEFAULTS.operationalStart,
    operational_end: input.operationalEnd ?? CUSTOMER_DEFAULTS.operationalEnd,
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
    const changed = Object.entries(requested).some(
      ([column, value]) => current[column as keyof typeof current] !== value,
    )
    if (changed)
      await repository.updateCustomer(trx, organisationId, id, { ...requested, updated_at: nowIso() })
    return getCustomer(trx, organisationId, id)
  })
}
