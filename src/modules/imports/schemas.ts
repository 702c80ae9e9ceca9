import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Id, Nullable } from '../../http/schemas.js'
import { AdminJobListQuery } from '../jobs/schemas.js'

export const ImportKind = Type.Union([Type.Literal('customers'), Type.Literal('jobs')], {
  description: 'What each row of the file is',
})

/** The fields a row may carry, by kind: the names of POST /customers and POST /jobs. */
export const IMPORT_FIELDS = {
  customers: [
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
  ],
  jobs: [
    'externalId',
    'title',
    'description',
    'customerExternalId',
    'customerId',
    'locationId',
    'jobLatitude',
    'jobLongitude',
    'serviceDuration',
    'priority',
    'timeWindowType',
    'earliestStart',
    'latestEnd',
    'address',
    'dueBy',
  ],
} as const

export const CreateImportBody = Type.Object(
  {
    kind: ImportKind,
    dryRun: Type.Optional(
      Type.Boolean({
        description: 'Check every row and count what would change, writing nothing. Default false',
      }),
    ),
    mapping: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), Type.String({ minLength: 1, maxLength: 200 }), {
        maxProperties: 30,
        description:
          "Our field name → the CSV's header name, for the headers that differ. A field not mapped is read " +
          'from the column of its own name, ignoring case; a column no field reads is ignored.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ kind: 'customers', dryRun: true, mapping: { externalId: 'Account No', name: 'Company' } }],
  },
)
export type CreateImportBody = Static<typeof CreateImportBody>

export const ImportRowError = Type.Object({
  row: Type.Integer({ description: "The row's number in the file, the header being row 1" }),
  field: Nullable(Type.String({ description: 'The field (our name) at fault; null: the row as a whole' })),
  error: Type.String(),
  code: Type.String({ description: 'The code POST would answer with, e.g. VALIDATION_ERROR, CONFLICT' }),
})
export type ImportRowError = Static<typeof ImportRowError>

export const ImportStatus = Type.Union(
  [Type.Literal('PENDING'), Type.Literal('RUNNING'), Type.Literal('SUCCEEDED'), Type.Literal('FAILED')],
  {
    description:
      'PENDING: waiting for its file (PUT …/file); RUNNING: reading it; SUCCEEDED: every row read (bad rows ' +
      'are in errors); FAILED: the file could not be read (failure says why)',
  },
)

export const Import = Type.Object(
  {
    id: Id,
    kind: ImportKind,
    dryRun: Type.Boolean(),
    mapping: Type.Record(Type.String(), Type.String()),
    status: ImportStatus,
    processed: Type.Integer({ description: 'Rows read so far' }),
    created: Type.Integer({ description: 'Rows that made a new record (dry run: would make)' }),
    updated: Type.Integer({ description: 'Rows that changed the record with their externalId' }),
    unchanged: Type.Integer({ description: 'Rows whose record already had every value' }),
    failed: Type.Integer({ description: 'Rows refused; the first 100 are in errors' }),
    bytesRead: Type.Integer({ description: 'Bytes of the file read so far' }),
    bytesTotal: Nullable(Type.Integer({ description: "The upload's Content-Length; null when not sent" })),
    errors: Type.Array(ImportRowError, { description: 'The first 100 refused rows, in file order' }),
    sample: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: 'The first 20 rows as mapped to our field names (to preview a mapping)',
    }),
    failure: Nullable(Type.String({ description: 'Why a FAILED import stopped' })),
    createdAt: DateTime,
    updatedAt: DateTime,
    finishedAt: Nullable(DateTime),
  },
  { title: 'Import' },
)
export type Import = Static<typeof Import>

export const ImportResponse = Envelope(Type.Object({ import: Import }), 'The import')

/** A CSV download's 200: the file, by content type (the handler sends a stream; nothing serializes it). */
export const CsvFile = {
  description: 'The CSV file: UTF-8, a header row first',
  content: { 'text/csv': { schema: Type.String({ description: 'CSV text, a header row first' }) } },
}

export const CustomerExportQuery = Type.Object(
  {
    search: Type.Optional(
      Type.String({ maxLength: 200, description: 'Case-insensitive substring of the name or the address' }),
    ),
  },
  { additionalProperties: false },
)

/** What the dashboard's Jobs list filters by (GET /jobs' admin query), without its paging and order. */
export const JobExportQuery = Type.Pick(
  AdminJobListQuery,
  ['status', 'priority', 'customerId', 'locationId', 'targetDate', 'timeZone', 'search'],
  { additionalProperties: false },
)

/**
 * PUT …/file's body: the CSV, by content type. No `type` keyword: the parser hands the handler the
 * request stream itself, which it reads as it arrives (the schema documents it; nothing validates it).
 */
export const CsvUpload = {
  content: {
    'text/csv': {
      schema: Type.Unsafe<unknown>({
        format: 'binary',
        description: 'The CSV file: UTF-8, a header row first, at most 20 MB',
      }),
    },
  },
}
