import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  DeletedShiftDateChangeResponse,
  PutShiftDateBody,
  ShiftDateChangeListResponse,
  ShiftDateChangeResponse,
  ShiftDateListQuery,
  ShiftDateParams,
} from './absences-schemas.js'
import {
  CreateShiftBody,
  DeletedShiftResponse,
  SHIFT_IN_USE_ERROR,
  SHIFT_WORKER_IN_USE_ERROR,
  UpdateShiftBody,
} from './admin-schemas.js'
import * as dateChanges from './date-changes-service.js'
import { shiftRoutes } from './routes.js'
import { ShiftResponse } from './schemas.js'
import * as shifts from './service.js'

export const shiftAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  // Reads are the public API's own routes, registered here too so the admin document is complete.
  await app.register(shiftRoutes, { db })

  app.post(
    '/shifts',
    {
      schema: {
        operationId: 'createShift',
        tags: ['Shifts'],
        summary: 'Create a shift template',
        description:
          'A weekly shift of one worker, from a depot, in a vehicle. userId, locationId and vehicleId must ' +
          'exist in your organisation (400 naming the field otherwise); endTime is after startTime on the ' +
          'same day; breaks lie within the shift and do not overlap (400 at /body/breaks/N).',
        body: CreateShiftBody,
        response: { 201: ShiftResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
    },
    async (request, reply) => {
      const shift = await shifts.createShift(db, request.auth.organisationId, request.body)
      return reply.status(201).send({ data: { shift }, message: SUCCESS })
    },
  )

  app.patch(
    '/shifts/:id',
    {
      schema: {
        operationId: 'updateShift',
        tags: ['Shifts'],
        summary: 'Update a shift template',
        description:
          'Only supplied fields change; breaks, when sent, replace the whole set. The rules of creation ' +
          'apply to the merged shift. updatedAt moves only when something really changes. The worker ' +
          '(userId) cannot change while jobs on the shift are ASSIGNED or IN_PROGRESS: 409 SHIFT_IN_USE.',
        params: IdParams,
        body: UpdateShiftBody,
        response: {
          200: ShiftResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...SHIFT_WORKER_IN_USE_ERROR,
        },
      },
    },
    async (request) => ({
      data: {
        shift: await shifts.updateShift(db, request.auth.organisationId, request.params.id, request.body),
      },
      message: SUCCESS,
    }),
  )

  app.delete(
    '/shifts/:id',
    {
      schema: {
        operationId: 'deleteShift',
        tags: ['Shifts'],
        summary: 'Delete a shift template',
        description:
          'Permanent, breaks included. Refused with 409 IN_USE while a job that is not deleted (whatever ' +
          'its status) is planned on the shift: unassign or delete those jobs first.',
        params: IdParams,
        response: {
          200: DeletedShiftResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...SHIFT_IN_USE_ERROR,
        },
      },
    },
    async (request) => ({
      data: { shift: await shifts.deleteShift(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.put(
    '/shifts/:id/dates/:date',
    {
      schema: {
        operationId: 'changeShiftDate',
        tags: ['Shifts'],
        summary: "Change a shift's hours on one date",
        description:
          'Other hours on that date ({ startTime, endTime }, endTime after startTime) or no shift ' +
          '({ off: true }); replaces an earlier change of the date. The date must fall on the shift’s ' +
          'weekday (400 at /params/date). The template’s breaks stay where they fit in the new hours ' +
          '(cut at their edges, dropped outside). Route plans, the live day, My day and the board use ' +
          'the changed hours.',
        params: ShiftDateParams,
        body: PutShiftDateBody,
        response: { 200: ShiftDateChangeResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request) => ({
      data: {
        change: await dateChanges.putShiftDateChange(
          db,
          request.auth.organisationId,
          request.params.id,
          request.params.date,
          request.body,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.delete(
    '/shifts/:id/dates/:date',
    {
      schema: {
        operationId: 'restoreShiftDate',
        tags: ['Shifts'],
        summary: 'Restore the weekly pattern on a date',
        description: 'Removes the one-off change of that date (404 when there is none).',
        params: ShiftDateParams,
        response: {
          200: DeletedShiftDateChangeResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
        },
      },
    },
    async (request) => ({
      data: {
        change: await dateChanges.deleteShiftDateChange(
          db,
          request.auth.organisationId,
          request.params.id,
          request.params.date,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.get(
    '/shifts/:id/dates',
    {
      schema: {
        operationId: 'listShiftDateChanges',
        tags: ['Shifts'],
        summary: "List a shift's one-off changes",
        description: 'The dates in [from, to] (either bound open) whose hours differ from the pattern.',
        params: IdParams,
        querystring: ShiftDateListQuery,
        response: { 200: ShiftDateChangeListResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        changes: await dateChanges.listShiftDateChanges(
          db,
          request.auth.organisationId,
          request.params.id,
          request.query,
        ),
      },
      message: SUCCESS,
    }),
  )
}
