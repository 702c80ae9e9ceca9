import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  ApiKeyListQuery,
  ApiKeyListResponse,
  ApiKeyResponse,
  CONFLICT_ERROR,
  CreateApiKeyBody,
  CreatedApiKeyResponse,
  RotateApiKeyBody,
  RotatedApiKeyResponse,
} from './schemas.js'
import * as keys from './service.js'

const TAGS = ['API keys']
// The DESIGN default, for an app built without configuration (the config supplies the same 100).
const FALLBACK_RATE_LIMIT_PER_MINUTE = 100

export const apiKeyAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, apiKeys, defaultRateLimitPerMinute = FALLBACK_RATE_LIMIT_PER_MINUTE },
) => {
  app.get(
    '/api-keys',
    {
      schema: {
        operationId: 'listApiKeys',
        tags: TAGS,
        summary: "List the organisation's API keys",
        description: 'Shows each key by its display prefix; the secret and its hash are never returned.',
        querystring: ApiKeyListQuery,
        response: { 200: ApiKeyListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await keys.listApiKeyPage(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.get(
    '/api-keys/:id',
    {
      schema: {
        operationId: 'getApiKey',
        tags: TAGS,
        summary: 'Get an API key',
        description: 'Its prefix and metadata; never the secret, which is shown once, at creation.',
        params: IdParams,
        response: { 200: ApiKeyResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { apiKey: await keys.getApiKey(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.post(
    '/api-keys',
    {
      schema: {
        operationId: 'createApiKey',
        tags: TAGS,
        summary: 'Create an API key',
        description:
          'The full key is in this response only: store it now, it cannot be shown again. A key can ' +
          'only be given scopes the calling key holds (admin holds all of them), otherwise 403 FORBIDDEN.',
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKeyResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
      // Its answer holds a secret: no Idempotency-Key, as the answer would be stored (http/idempotency.ts).
      config: { revealsSecret: true },
    },
    async (request, reply) => {
      const issued = await keys.issueApiKey(db, request.auth, request.body, defaultRateLimitPerMinute)
      return reply.status(201).send({ data: issued, message: SUCCESS })
    },
  )

  app.post(
    '/api-keys/:id/revoke',
    {
      schema: {
        operationId: 'revokeApiKey',
        tags: TAGS,
        summary: 'Revoke an API key',
        description:
          'Takes effect on the next request to this server and within AUTH_CACHE_TTL_MS (4 s by default) ' +
          'on every other one. Revoking a revoked key changes nothing and answers 200. A key may revoke ' +
          'itself; its next request is refused with 401.',
        params: IdParams,
        response: { 200: ApiKeyResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request) => {
      const apiKey = await keys.revokeApiKeyById(db, request.auth.organisationId, request.params.id)
      apiKeys.invalidate()
      return { data: { apiKey }, message: SUCCESS }
    },
  )

  app.post(
    '/api-keys/:id/rotate',
    {
      schema: {
        operationId: 'rotateApiKey',
        tags: TAGS,
        summary: 'Replace an API key with a new secret',
        description:
          'Creates a key with the same name, scopes, rate limit and expiry and returns its secret once. ' +
          'With gracePeriodSeconds 0 (the default) the old key is revoked at once; otherwise it keeps ' +
          'working until min(its expiry, now + grace period). A key is rotated at most once: rotating ' +
          'it again answers 409 KEY_ALREADY_ROTATED naming its replacement (rotate that one instead). ' +
          'A revoked or expired key cannot be rotated (409 CONFLICT). The body may be omitted.',
        params: IdParams,
        body: RotateApiKeyBody,
        response: {
          201: RotatedApiKeyResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...CONFLICT_ERROR,
          ...BODY_ERRORS,
        },
      },
      // Its answer holds a secret: no Idempotency-Key, as the answer would be stored (http/idempotency.ts).
      config: { optionalBody: true, revealsSecret: true },
    },
    async (request, reply) => {
      const rotated = await keys.rotateApiKey(db, request.auth, request.params.id, request.body)
      apiKeys.invalidate()
      return reply.status(201).send({ data: rotated, message: SUCCESS })
    },
  )
}
