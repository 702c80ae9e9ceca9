import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  CreateUserBody,
  EMAIL_CONFLICT_ERROR,
  SetPasswordBody,
  UpdateUserBody,
  UserListQuery,
  UserListResponse,
  UserResponse,
} from './users-schemas.js'
import * as users from './users-service.js'

const TAGS = ['Team']

export const teamAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db, dashboard }) => {
  app.get(
    '/team/users',
    {
      schema: {
        operationId: 'listUsers',
        tags: TAGS,
        summary: 'List team members',
        description: 'Active and inactive users alike unless filtered with isActive.',
        querystring: UserListQuery,
        response: { 200: UserListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await users.listUsers(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.post(
    '/team/users',
    {
      schema: {
        operationId: 'createUser',
        tags: TAGS,
        summary: 'Add a team member',
        description:
          'New users are active, in the colour fewest active users of the organisation have (the lowest ' +
          'on a tie). The email is trimmed and lower-cased before it is stored.',
        body: CreateUserBody,
        response: { 201: UserResponse, ...COMMON_ERRORS, ...BODY_ERRORS, ...EMAIL_CONFLICT_ERROR },
      },
      config: { access: 'admin' },
    },
    async (request, reply) => {
      const user = await users.createUser(db, request.auth.organisationId, request.body)
      return reply.status(201).send({ data: { user }, message: SUCCESS })
    },
  )

  app.get(
    '/team/users/:id',
    {
      schema: {
        operationId: 'getUser',
        tags: TAGS,
        summary: 'Get a team member',
        description: 'A worker or dispatcher of the organisation, active or not.',
        params: IdParams,
        response: { 200: UserResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { user: await users.getUser(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.patch(
    '/team/users/:id',
    {
      schema: {
        operationId: 'updateUser',
        tags: TAGS,
        summary: 'Update a team member',
        description:
          'Changes name, email, role or colour; updatedAt moves only when a value really changes. The public ' +
          'API shows the new name and email on the shifts and jobs of this user.',
        params: IdParams,
        body: UpdateUserBody,
        response: {
          200: UserResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...EMAIL_CONFLICT_ERROR,
        },
      },
      config: { access: 'admin' },
    },
    async (request) => ({
      data: {
        user: await users.updateUser(db, request.auth.organisationId, request.params.id, request.body),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/team/users/:id/deactivate',
    {
      schema: {
        operationId: 'deactivateUser',
        tags: TAGS,
        summary: 'Deactivate a team member',
        description:
          'Users are never deleted: an inactive user stays readable, keeps existing shifts and jobs ' +
          '(the public API still shows them as shift user and job assignee), but cannot be assigned ' +
          'new work. Deactivating an inactive user changes nothing.',
        params: IdParams,
        response: { 200: UserResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
      config: { access: 'admin' },
    },
    async (request) => ({
      data: { user: await users.setUserActive(db, request.auth.organisationId, request.params.id, false) },
      message: SUCCESS,
    }),
  )

  app.post(
    '/team/users/:id/activate',
    {
      schema: {
        operationId: 'activateUser',
        tags: TAGS,
        summary: 'Reactivate a team member',
        description: 'Undoes a deactivation. Activating an active user changes nothing.',
        params: IdParams,
        response: { 200: UserResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
      config: { access: 'admin' },
    },
    async (request) => ({
      data: { user: await users.setUserActive(db, request.auth.organisationId, request.params.id, true) },
      message: SUCCESS,
    }),
  )

  app.put(
    '/team/users/:id/password',
    {
      schema: {
        operationId: 'setUserPassword',
        tags: TAGS,
        summary: "Set a team member's password",
        description:
          'Sets or replaces the password (at least 12 characters; stored only as a scrypt hash) and signs ' +
          "the user out of every dashboard session, the caller's own included when it is theirs. ADMIN " +
          'and DISPATCHER users with a password sign in to the dashboard; a WORKER to My day (/my) only.',
        params: IdParams,
        body: SetPasswordBody,
        response: { 200: UserResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
      // The body holds a password: no Idempotency-Key, whose stored fingerprint hashes the body.
      config: { access: 'admin', revealsSecret: true },
    },
    async (request, reply) => {
      const { id } = request.params
      const user = await users.setUserPassword(
        db,
        request.auth.organisationId,
        id,
        request.body.password,
        dashboard?.passwordParams,
      )
      if (request.auth.kind === 'session' && request.auth.session.userId === id)
        dashboard?.cookies.clear(request, reply)
      return { data: { user }, message: SUCCESS }
    },
  )
}
