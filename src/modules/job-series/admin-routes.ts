import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  IdParams,
  NOT_FOUND_ERROR,
  NoInputBody,
  SUCCESS,
} from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  CreateSeriesBody,
  EndSeriesBody,
  MoveOccurrenceBody,
  OccurrenceParams,
  OccurrenceResponse,
  SeriesJobsQuery,
  SeriesJobsResponse,
  SeriesListQuery,
  SeriesListResponse,
  SeriesResponse,
  UpdateSeriesBody,
} from './schemas.js'
import * as series from './service.js'

const TAGS = ['Job series']
const WRITE_ERRORS = { ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS }
const OCCURRENCE_ERRORS = {
  ...COMMON_ERRORS,
  ...BODY_ERRORS,
  ...errorResponses('NOT_FOUND', 'OCCURRENCE_NOT_FOUND', 'OCCURRENCE_DISPATCHED'),
}
const GENERATION =
  'Occurrences become ordinary jobs (status CREATED, seriesId and occurrenceDate set, JOB_CREATED each) ' +
  'from today to SERIES_HORIZON_DAYS ahead (default 28), now and then every hour as the days pass.'

/** Recurring job series: dispatchers and admin keys (the module's access, set in app.ts). */
export const jobSeriesAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, clock, seriesHorizonDays },
) => {
  const context: series.SeriesContext = { now: clock, horizonDays: seriesHorizonDays }

  app.post(
    '/job-series',
    {
      schema: {
        operationId: 'createJobSeries',
        tags: TAGS,
        summary: 'Create a recurring job series',
        description:
          'A job template (the fields of POST /jobs but its window, plus tagIds and demands) and an RFC 5545 ' +
          'rule from startDate. Each occurrence’s window is `window`’s local times on its date in the depot’s ' +
          'time zone (the template’s location, else the organisation’s primary depot, else UTC); no window: ' +
          `the whole local day, HARD. ${GENERATION} 400 at /body/rrule for a rule outside the subset or with ` +
          'no occurrence; the template’s 400s name /body/job/<field>.',
        body: CreateSeriesBody,
        response: { 201: SeriesResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
    },
    async (request, reply) => {
      const created = await series.createSeries(db, request.auth.organisationId, request.body, context)
      return reply.status(201).send({ data: { series: created }, message: SUCCESS })
    },
  )

  app.get(
    '/job-series',
    {
      schema: {
        operationId: 'listJobSeries',
        tags: TAGS,
        summary: 'List job series',
        description:
          'Newest first; each with nextDate, the date its next occurrence happens on (skipped ones passed over).',
        querystring: SeriesListQuery,
        response: { 200: SeriesListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await series.listSeries(db, request.auth.organisationId, request.query, context),
      message: SUCCESS,
    }),
  )

  app.get(
    '/job-series/:id/jobs',
    {
      schema: {
        operationId: 'listJobSeriesJobs',
        tags: TAGS,
        summary: "List a job series' generated jobs",
        description:
          'The jobs made for its occurrences so far (deleted ones left out), latest occurrence first, with ' +
          'their status and window.',
        params: IdParams,
        querystring: SeriesJobsQuery,
        response: { 200: SeriesJobsResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: await series.listSeriesJobs(db, request.auth.organisationId, request.params.id, request.query),
      message: SUCCESS,
    }),
  )

  app.get(
    '/job-series/:id',
    {
      schema: {
        operationId: 'getJobSeries',
        tags: TAGS,
        summary: 'Get a job series',
        description:
          'The series, its rule in words and its next 5 occurrences with their jobs once generated.',
        params: IdParams,
        response: { 200: SeriesResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { series: await series.getSeries(db, request.auth.organisationId, request.params.id, context) },
      message: SUCCESS,
    }),
  )

  app.patch(
    '/job-series/:id',
    {
      schema: {
        operationId: 'updateJobSeries',
        tags: TAGS,
        summary: 'Change a job series',
        description:
          'Template fields (only those sent), window, rule and start date. By default only occurrences not ' +
          'generated yet take the change; applyTo FUTURE_JOBS also changes the generated jobs still CREATED ' +
          'from today on (JOB_UPDATED each, when something really changes) and cancels those no longer in ' +
          'the rule. ASSIGNED and later jobs never change.',
        params: IdParams,
        body: UpdateSeriesBody,
        response: { 200: SeriesResponse, ...WRITE_ERRORS },
      },
    },
    async (request) => ({
      data: {
        series: await series.updateSeries(
          db,
          request.auth.organisationId,
          request.params.id,
          request.body,
          context,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/job-series/:id/end',
    {
      schema: {
        operationId: 'endJobSeries',
        tags: TAGS,
        summary: 'End a job series',
        description:
          'No occurrence after lastDate. The generated jobs of later occurrences that are still CREATED are ' +
          'cancelled (JOB_CANCELLED, reason "The series ended on …"); ASSIGNED and later jobs are left to the ' +
          'dispatcher.',
        params: IdParams,
        body: EndSeriesBody,
        response: { 200: SeriesResponse, ...WRITE_ERRORS },
      },
    },
    async (request) => ({
      data: {
        series: await series.endSeries(
          db,
          request.auth.organisationId,
          request.params.id,
          request.body,
          context,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/job-series/:id/occurrences/:date/skip',
    {
      schema: {
        operationId: 'skipJobSeriesOccurrence',
        tags: TAGS,
        summary: 'Skip one occurrence',
        description:
          'The occurrence will not happen and is never generated again; its job, if generated and CREATED, is ' +
          'cancelled (JOB_CANCELLED). 404 OCCURRENCE_NOT_FOUND when the date is not one of the series; 422 ' +
          'OCCURRENCE_DISPATCHED when its job is ASSIGNED or later.',
        params: OccurrenceParams,
        body: NoInputBody,
        response: { 200: OccurrenceResponse, ...OCCURRENCE_ERRORS },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: {
        occurrence: await series.skipOccurrence(
          db,
          request.auth.organisationId,
          request.params.id,
          request.params.date,
          context,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/job-series/:id/occurrences/:date/move',
    {
      schema: {
        operationId: 'moveJobSeriesOccurrence',
        tags: TAGS,
        summary: 'Move one occurrence to another date',
        description:
          'The occurrence of `date` (its date in the rule, which its job keeps as occurrenceDate) happens on ' +
          'the body’s date instead, in its own window or the series’. A generated CREATED job moves with it ' +
          '(JOB_UPDATED); 422 OCCURRENCE_DISPATCHED when its job is ASSIGNED or later; 404 ' +
          'OCCURRENCE_NOT_FOUND when the date is not one of the series.',
        params: OccurrenceParams,
        body: MoveOccurrenceBody,
        response: { 200: OccurrenceResponse, ...OCCURRENCE_ERRORS },
      },
    },
    async (request) => ({
      data: {
        occurrence: await series.moveOccurrence(
          db,
          request.auth.organisationId,
          request.params.id,
          request.params.date,
          request.body,
          context,
        ),
      },
      message: SUCCESS,
    }),
  )
}
