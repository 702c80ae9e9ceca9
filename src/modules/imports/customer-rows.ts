// Customer rows: each checked by POST /customers' schema and rules, then upserted by externalId in
// the batch's one transaction (customers have no events, so a batch is plain inserts and updates).
import type { Kysely } from 'kysely'
import type { CustomerRow, Database, Executor, NewCustomer } from '../../db/types.js'
import { compileBodyValidator } from '../../http/validation.js'
import { CreateCustomerBody } from '../customers/schemas.js'
import * as customers from '../customers/service.js'
import { fieldError, type ImportRowInput, type RowOutcome, rowErrorOf, schemaError } from './rows.js'

const validateCustomer = compileBodyValidator(CreateCustomerBody)
const validateChanges = compileBodyValidator({ ...CreateCustomerBody, required: [] })

export async function importCustomerRows(
  db: Kysely<Database>,
  organisationId: string,
  rows: readonly ImportRowInput[],
  dryRun: boolean,
): Promise<RowOutcome[]> {
  const externalIds = rows
    .map((r) => r.values.externalId)
    .filter((id): id is string => typeof id === 'string')
  const write = async (executor: Executor) => {
    const found = await customers.findCustomersByExternalIds(executor, organisationId, [
      ...new Set(externalIds),
    ])
    const byExternalId = new Map<string, CustomerRow | NewCustomer>(
      found.map((c) => [c.external_id ?? '', c]),
    )
    const outcomes: RowOutcome[] = []
    for (const input of rows) {
      try {
        outcomes.push(await upsertCustomer(executor, organisationId, input, byExternalId, dryRun))
      } catch (error) {
        outcomes.push(rowErrorOf(input.row, error))
      }
    }
    return outcomes
  }
  return dryRun ? write(db) : db.transaction().execute(write)
}

async function upsertCustomer(
  db: Executor,
  organisationId: string,
  { row, values }: ImportRowInput,
  byExternalId: Map<string, CustomerRow | NewCustomer>,
  dryRun: boolean,
): Promise<RowOutcome> {
  const externalId = values.externalId
  if (typeof externalId !== 'string')
    throw fieldError(row, 'externalId', 'externalId is required in an import')
  const current = byExternalId.get(externalId)
  if (!current) {
    if (!validateCustomer(values)) return schemaError(row, validateCustomer.errors ?? [])
    const created = customers.newCustomerRow(organisationId, values as CreateCustomerBody)
    if (!dryRun) await customers.insertCustomerRows(db, [created])
    byExternalId.set(externalId, created)
    return 'created'
  }
  if (!validateChanges(values)) return schemaError(row, validateChanges.errors ?? [])
  const changed = await customers.applyCustomerUpdate(
    db,
    organisationId,
    current as CustomerRow,
    values,
    dryRun,
  )
  // The same externalId further down the file reads the row as this one left it.
  if (changed) {
    const [now] = await customers.findCustomersByExternalIds(db, organisationId, [externalId])
    byExternalId.set(externalId, now ?? current)
  }
  return changed ? 'updated' : 'unchanged'
}
