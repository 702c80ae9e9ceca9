import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AppError } from '../../http/errors.js'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  IdParams,
  NOT_FOUND_ERROR,
  SUCCESS,
} from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { exportCustomers, exportJobs } from './csv-export.js'
import {
  CreateImportBody,
  CsvFile,
  CsvUpload,
  CustomerExportQuery,
  ImportResponse,
  JobExportQuery,
} from './schemas.js'
import * as imports from './service.js'

const TAGS = ['Imports']

/** CSV imports of customers and jobs (dispatchers and admin keys: the module's access, set in app.ts). */
export const importAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  // The file is read as a stream, never as one buffer: the parser gets it as it arrives.
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload))

  app.post(
    '/imports',
    {
      schema: {
        operationId: 'createImport',
        tags: TAGS,
        summary: 'Start a CSV import',
        description:
          'An import of customers or jobs, waiting for its file (PUT /imports/{id}/file). Rows upsert by ' +
          'externalId: a row whose externalId is new creates, one that exists updates (only the fields it ' +
          'has a value for; an empty cell leaves a field as it is). `dryRun` checks and counts, writing ' +
          'nothing. 400 at /body/mapping/<field> for a field the kind does not have.',
        body: CreateImportBody,
        response: { 201: ImportResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
    },
    async (request, reply) => {
      const created = await imports.createImport(db, request.auth.organisationId, request.body)
      return reply.status(201).send({ data: { import: created }, message: SUCCESS })
    },
  )

  app.put(
    '/imports/:id/file',
    {
      bodyLimit: imports.MAX_IMPORT_BYTES,
      // Not one transaction round the handler (an Idempotency-Key's usual way): each batch commits on its
      // own so GET /imports/:id shows the progress from any instance while the file is read.
      config: { externalEffects: true },
      schema: {
        operationId: 'uploadImportFile',
        tags: TAGS,
        summary: "Send an import's CSV file and run it",
        description:
          'Body: the CSV (Content-Type: text/csv, UTF-8, a header row first, at most 20 MB), read as it ' +
          `arrives, ${imports.IMPORT_BATCH_ROWS} rows at a time. Answers the finished import; meanwhile ` +
          'GET /imports/{id} shows its progress (processed, bytesRead of bytesTotal). Each row is checked ' +
          'as POST /customers or POST /jobs checks its body; a refused row is skipped and listed in ' +
          'errors with its row number and field, the others are written. Jobs: a new one makes ' +
          'JOB_CREATED, a changed one JOB_UPDATED, an unchanged one nothing. 409 when the import already ' +
          'had its file. A file that cannot be read as CSV ends FAILED with `failure`.',
        params: IdParams,
        body: CsvUpload,
        response: {
          200: ImportResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses(['CONFLICT', 'The import already had its file']),
        },
      },
    },
    async (request) => {
      if (!(request.body instanceof Readable)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The file must be sent as Content-Type: text/csv')
      }
      const length = Number(request.headers['content-length'])
      const finished = await imports.runImport(
        db,
        request.auth.organisationId,
        request.params.id,
        request.body as Readable,
        Number.isSafeInteger(length) ? length : null,
      )
      return { data: { import: finished }, message: SUCCESS }
    },
  )

  app.get(
    '/imports/:id',
    {
      schema: {
        operationId: 'getImport',
        tags: TAGS,
        summary: 'Get an import and its progress',
        description:
          'Its status, the rows processed so far and what they did, the first 100 refused rows and the ' +
          'first 20 rows as mapped. Poll it while PUT …/file runs to draw a progress bar.',
        params: IdParams,
        response: { 200: ImportResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { import: await imports.getImport(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  const CSV_NOTE =
    'Streamed as it is read (keyset-paged by id, no row limit), UTF-8 with a header row. Text cells ' +
    "starting with = + - @ tab or CR get a leading ' so a spreadsheet never runs them as formulas."

  app.get(
    '/customers/export.csv',
    {
      schema: {
        operationId: 'exportCustomersCsv',
        tags: TAGS,
        summary: 'Download customers as CSV',
        description: `The customers GET /customers would list with the same search, in id order. ${CSV_NOTE}`,
        querystring: CustomerExportQuery,
        response: { 200: CsvFile, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="customers.csv"')
      // A stream is sent as it is read; the 200 schema documents the text it makes.
      return reply.send(
        exportCustomers(db, request.auth.organisationId, request.query.search) as unknown as string,
      )
    },
  )

  app.get(
    '/jobs/export.csv',
    {
      schema: {
        operationId: 'exportJobsCsv',
        tags: TAGS,
        summary: 'Download jobs as CSV',
        description: `The live jobs GET /jobs would list with the same filters (status, priority, customerId, locationId, targetDate in timeZone, search), in id order. ${CSV_NOTE}`,
        querystring: JobExportQuery,
        response: { 200: CsvFile, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="jobs.csv"')
      return reply.send(exportJobs(db, request.auth.organisationId, request.query) as unknown as string)
    },
  )
}
