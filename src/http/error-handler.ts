// One place where every failure becomes `{ error, code }`: coded AppErrors, validation failures,
// Fastify's own 4xx (bad JSON, body too large, wrong content type), an unavailable database (503)
// and anything unexpected.
import { Type } from '@sinclair/typebox'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isDatabaseUnavailable } from '../db/database.js'
import {
  AppError,
  type ErrorCode,
  type ErrorDetail,
  RETRY_AFTER_SECONDS,
  serviceUnavailable,
} from './errors.js'
import { ERROR_CODES_KEYWORD, ErrorBody } from './schemas.js'
import { describeValidationErrors, summarise } from './validation.js'

interface ErrorResponse {
  error: string
  code: ErrorCode
  details?: ErrorDetail[]
  [extra: string]: unknown
}

const FASTIFY_CODES: Record<string, { code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'Request body is larger than the 1 MiB limit',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Content-Type must be application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'VALIDATION_ERROR',
    message: 'Content-Length does not match the body',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'VALIDATION_ERROR',
    message: 'Request body is empty; send a JSON object',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' },
}

function toResponse(
  error: FastifyError | AppError,
  request: FastifyRequest,
): { status: number; body: ErrorResponse } {
  if (error instanceof AppError) {
    const body: ErrorResponse = { ...error.options.extra, error: error.message, code: error.code }
    if (error.details) body.details = error.details
    return { status: error.statusCode, body }
  }
  const fastifyError = error as FastifyError
  if (fastifyError.validation) {
    const details = describeValidationErrors(
      fastifyError.validation,
      fastifyError.validationContext ?? 'body',
    )
    return { status: 400, body: { error: summarise(details), code: 'VALIDATION_ERROR', details } }
  }
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined
  if (known) {
    const status = known.code === 'VALIDATION_ERROR' ? 400 : (fastifyError.statusCode ?? 400)
    return { status, body: { error: known.message ?? fastifyError.message, code: known.code } }
  }
  // A body that JSON.parse rejected surfaces as a SyntaxError with status 400.
  const status = fastifyError.statusCode ?? 500
  if (status >= 400 && status < 500) {
    const isJson = error instanceof SyntaxError || /JSON/i.test(fastifyError.message)
    return {
      status: status === 404 ? 404 : 400,
      body: {
        error: isJson ? 'Request body is not valid JSON' : 'Bad request',
        code: status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR',
      },
    }
  }
  if (isDatabaseUnavailable(error)) {
    // Expected while the database is down, and one line per request: no stack, not at error level.
    request.log.warn({ cause: describeCause(error) }, 'database unavailable')
    const unavailable = serviceUnavailable()
    return { status: unavailable.statusCode, body: { error: unavailable.message, code: unavailable.code } }
  }
  request.log.error({ err: error }, 'unhandled error')
  return { status: 500, body: { error: 'Internal server error', code: 'INTERNAL_ERROR' } }
}

function describeCause(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown }
  return [code, message].filter((part) => typeof part === 'string' && part !== '').join(': ')
}

const SERVICE_UNAVAILABLE_RESPONSE = Type.Ref(ErrorBody, {
  description: 'Database unreachable for the moment (SERVICE_UNAVAILABLE); retry after `Retry-After` seconds',
  // Named, not left to "every 503 code": the address lookup's GEOCODER_UNAVAILABLE is a 503 too.
  [ERROR_CODES_KEYWORD]: ['SERVICE_UNAVAILABLE'],
})

export function installErrorHandling(app: FastifyInstance): void {
  // Any route that documents its errors can also answer 503 when the database is unreachable: say so
  // in the OpenAPI documents, next to the other codes.
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined
    if (!response || response[503] || !response[401]) return
    route.schema = { ...route.schema, response: { ...response, 503: SERVICE_UNAVAILABLE_RESPONSE } }
  })

  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toResponse(error, request)
    if (status >= 500) reply.header('cache-control', 'no-store')
    const retryAfter = error instanceof AppError ? error.options.retryAfterSeconds : undefined
    if (retryAfter !== undefined) reply.header('retry-after', retryAfter)
    if (status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', RETRY_AFTER_SECONDS)
    return reply.status(status).send(body)
  })
}
