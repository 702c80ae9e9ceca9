// Absences of team members (admin API, Team): ADMIN and DISPATCHER sessions read and write them, as
// they read the team and dispatch its work; a WORKER sees their own absence in My day (/my), which
// says the day is off and why — workers never use the admin API.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  AbsenceListQuery,
  AbsenceListResponse,
  AbsenceParams,
  AbsenceResponse,
  AllAbsencesQuery,
  CreateAbsenceBody,
  DeletedAbsenceResponse,
  MAX_ABSENCE_DAYS,
} from './absences-schemas.js'
import * as absences from './absences-service.js'

const TAGS = ['Team']

export const absenceAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.post(
    '/team/users/:id/absences',
    {
      schema: {
        operationId: 'createAbsence',
        tags: TAGS,
        summary: 'Record an absence of a team member',
        description:
          'Whole days (startDate..endDate inclusive, at most ' +
          `${MAX_ABSENCE_DAYS} days), or part of one day (startTime and endTime, startDate = endDate). ` +
          'Dates and times are read in the calendar of the depot of each of the worker’s shifts. While ' +
          'away, the worker’s shifts are left out of route plans, the live day and My day; a part-day ' +
          'absence shortens the shift when it touches its start or end, else blocks that time like an ' +
          'unpaid break. Assigning the worker a visit then is refused with 422 WORKER_ABSENT. 404 for a ' +
          'user of another organisation.',
        params: IdParams,
        body: CreateAbsenceBody,
        response: { 201: AbsenceResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request, reply) => {
      const absence = await absences.createAbsence(
        db,
        request.auth.organisationId,
        request.params.id,
        request.body,
      )
      return reply.status(201).send({ data: { absence }, message: SUCCESS })
    },
  )

  app.get(
    '/team/users/:id/absences',
    {
      schema: {
        operationId: 'listUserAbsences',
        tags: TAGS,
        summary: "List a team member's absences",
        description: 'Those touching [from, to] (either bound open), by startDate.',
        params: IdParams,
        querystring: AbsenceListQuery,
        response: { 200: AbsenceListResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        absences: await absences.listAbsencesOfUser(
          db,
          request.auth.organisationId,
          request.params.id,
          request.query,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.delete(
    '/team/users/:id/absences/:absenceId',
    {
      schema: {
        operationId: 'deleteAbsence',
        tags: TAGS,
        summary: 'Remove an absence',
        description: 'Permanent: the worker’s shifts on those dates are worked again.',
        params: AbsenceParams,
        response: { 200: DeletedAbsenceResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request) => ({
      data: {
        absence: await absences.deleteAbsence(
          db,
          request.auth.organisationId,
          request.params.id,
          request.params.absenceId,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.get(
    '/absences',
    {
      schema: {
        operationId: 'listAbsences',
        tags: TAGS,
        summary: 'List everyone’s absences',
        description:
          'The dispatcher’s view: absences of the whole team touching [from, to], by startDate; with ' +
          'locationId, only those of workers with a shift at that depot (404 for an unknown depot).',
        querystring: AllAbsencesQuery,
        response: { 200: AbsenceListResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { absences: await absences.listAbsences(db, request.auth.organisationId, request.query) },
      message: SUCCESS,
    }),
  )
}
