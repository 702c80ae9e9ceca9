// CSV exports of the customer and job lists: keyset-paged reads (1,000 rows a page, by id) piped
// through csv-stringify as they arrive, so no export holds more than a page in memory and none has
// a row limit. Text a person typed is formula-safe: a cell starting with = + - @ tab or CR gets a
// leading ' so a spreadsheet shows it instead of running it (a plain number such as -2.2346 stays
// as it is: it is read as a number, and a re-import reads it back).
import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import * as customers from '../customers/service.js'
import * as jobs from '../jobs/service.js'

const PAGE_ROWS = 1000
const FORMULA_START = /^[=+\-@\t\r]/
/** A plain number (a coordinate such as -2.2346) is read as a number by every spreadsheet, never run. */
const PLAIN_NUMBER = /^-?[0-9]+(\.[0-9]+)?$/

/** A text cell as a spreadsheet will show it, never as a formula. */
export function safeCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = String(value)
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text
}

const CUSTOMER_COLUMNS = [
  'id',
  'externalId',
  'name',
  'address',
  'latitude',
  'longitude',
  'serviceDuration',
  'priority',
  'timeWindowType',
  'operationalStart',
  'operationalEnd',
  'email',
  'phone',
  'notes',
  'createdAt',
  'updatedAt',
] as const

const JOB_COLUMNS = [
  'id',
  'number',
  'externalId',
  'title',
  'description',
  'status',
  'priority',
  'customerId',
  'locationId',
  'address',
  'jobLatitude',
  'jobLongitude',
  'serviceDuration',
  'timeWindowType',
  'earliestStart',
  'latestEnd',
  'dueBy',
  'scheduledStart',
  'scheduledEnd',
  'assignedUserId',
  'startedAt',
  'completedAt',
  'createdAt',
  'updatedAt',
] as const

function csvOf(columns: readonly string[], pages: AsyncIterable<Record<string, unknown>[]>): Readable {
  const rows = async function* () {
    for await (const page of pages) {
      for (const record of page) yield columns.map((column) => safeCell(record[column]))
    }
  }
  return Readable.from(rows()).pipe(stringify({ header: true, columns: [...columns] }))
}

export function exportCustomers(
  db: Kysely<Database>,
  organisationId: string,
  search: string | undefined,
): Readable {
  return csvOf(
    CUSTOMER_COLUMNS,
    (async function* () {
      let after: string | null = null
      for (;;) {
        const page = await customers.listCustomersById(db, organisationId, search, after, PAGE_ROWS)
        if (page.length === 0) return
        yield page
        after = String(page[page.length - 1]?.id)
        if (page.length < PAGE_ROWS) return
      }
    })(),
  )
}

export function exportJobs(
  db: Kysely<Database>,
  organisationId: string,
  filters: jobs.JobExportFilters,
): Readable {
  const pageAfter = jobs.jobPagesById(db, organisationId, filters)
  return csvOf(
    JOB_COLUMNS,
    (async function* () {
      let after: string | null = null
      for (;;) {
        const page = await pageAfter(after, PAGE_ROWS)
        if (page.length === 0) return
        yield page
        after = String(page[page.length - 1]?.id)
        if (page.length < PAGE_ROWS) return
      }
    })(),
  )
}
