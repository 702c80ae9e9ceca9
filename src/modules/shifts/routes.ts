import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import { COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import { ShiftListQuery, ShiftListResponse, ShiftResponse } from './schemas.js'
import * as shifts from './service.js'

export const shiftRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/shifts',
    {
      schema: {
        operationId: 'listShifts',
        tags: ['Shifts'],
        summary: 'List shift templates',
        description: 'Newest first, each with its worker, depot, vehicle and breaks.',
        querystring: ShiftListQuery,
        response: { 200: ShiftListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await shifts.listShifts(db, request.auth.organisationId, request.query, app.changeSettleMs),
      message: SUCCESS,
    }),
  )

  app.get(
    '/shifts/:id',
    {
      config: { etag: {} },
      schema: {
        operationId: 'getShift',
        tags: ['Shifts'],
        summary: 'Get a shift template',
        description: 'A shift with its worker, depot, vehicle and breaks (sorted by start time).',
        params: IdParams,
        response: { 200: ShiftResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { shift: await shifts.getShift(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )
}
