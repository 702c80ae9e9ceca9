// Job rows: each checked by POST /jobs' schema, then created or updated through the jobs service one
// job per transaction, so a new job makes its JOB_CREATED and a real change its JOB_UPDATED, exactly
// as the API would; a row with nothing new writes nothing and sends nothing.
import type { Kysely } from 'kysely'
import type { Database, JobRow } from '../../db/types.js'
import { compileBodyValidator } from '../../http/validation.js'
import * as customers from '../customers/service.js'
import { CreateJobBody, type UpdateJobBody } from '../jobs/schemas.js'
import * as jobs from '../jobs/service.js'
import { fieldError, type ImportRowInput, type RowOutcome, rowErrorOf, schemaError } from './rows.js'

const validateJob = compileBodyValidator(CreateJobBody)
const validateChanges = compileBodyValidator({ ...CreateJobBody, required: [] })

export async function importJobRows(
  db: Kysely<Database>,
  organisationId: string,
  rows: readonly ImportRowInput[],
  dryRun: boolean,
): Promise<RowOutcome[]> {
  const texts = (field: string) => [
    ...new Set(rows.map((r) => r.values[field]).filter((v): v is string => typeof v === 'string')),
  ]
  const [found, customersFound] = await Promise.all([
    jobs.findJobsByExternalIds(db, organisationId, texts('externalId')),
    customers.findCustomersByExternalIds(db, organisationId, texts('customerExternalId')),
  ])
  const byExternalId = new Map(found.map((job) => [job.external_id ?? '', job]))
  const customerIds = new Map(customersFound.map((c) => [c.external_id ?? '', c.id]))
  const outcomes: RowOutcome[] = []
  for (const input of rows) {
    try {
      outcomes.push(await upsertJob(db, organisationId, input, byExternalId, customerIds, dryRun))
    } catch (error) {
      outcomes.push(rowErrorOf(input.row, error))
    }
  }
  return outcomes
}

async function upsertJob(
  db: Kysely<Database>,
  organisationId: string,
  { row, values }: ImportRowInput,
  byExternalId: Map<string, JobRow>,
  customerIds: Map<string, string>,
  dryRun: boolean,
): Promise<RowOutcome> {
  const { customerExternalId, ...body } = values
  const externalId = body.externalId
  if (typeof externalId !== 'string')
    throw fieldError(row, 'externalId', 'externalId is required in an import')
  if (typeof customerExternalId === 'string') {
    const customerId = customerIds.get(customerExternalId)
    if (!customerId) {
      throw fieldError(
        row,
        'customerExternalId',
        `no customer has the externalId "${customerExternalId}" in your organisation`,
      )
    }
    body.customerId = customerId
  }
  const current = byExternalId.get(externalId)
  if (!current) {
    if (!validateJob(body)) return schemaError(row, validateJob.errors ?? [])
    if (dryRun) {
      await db
        .transaction()
        .execute((trx) => jobs.assertJobCreatable(trx, organisationId, body as CreateJobBody))
    } else {
      await jobs.createJob(db, organisationId, body as CreateJobBody)
      const [createdRow] = await jobs.findJobsByExternalIds(db, organisationId, [externalId])
      if (createdRow) byExternalId.set(externalId, createdRow)
    }
    return 'created'
  }
  if (current.deleted_at !== null) {
    throw fieldError(row, 'externalId', `the job with externalId "${externalId}" was deleted`, 'NOT_FOUND')
  }
  if (!validateChanges(body)) return schemaError(row, validateChanges.errors ?? [])
  const changes = await jobs.jobChangesOf(db, organisationId, current, body as UpdateJobBody)
  if (changes.length === 0) return 'unchanged'
  if (!dryRun) {
    await jobs.updateJob(db, organisationId, current.id, body as UpdateJobBody)
    const [updatedRow] = await jobs.findJobsByExternalIds(db, organisationId, [externalId])
    if (updatedRow) byExternalId.set(externalId, updatedRow)
  }
  return 'updated'
}
