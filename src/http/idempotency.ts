// Idempotency-Key on every POST, PUT and PATCH of both APIs (issue 16; the rules of a key are in
// modules/idempotency/service.ts). A request without the header runs exactly as before: the hooks
// below return at once and the handler is called directly.
//
// With a key, in request order:
// - preValidation: the fingerprint (method, path with query, canonical JSON of the body) is taken
//   before Ajv fills in defaults, so a retry that spells a default out differs from one that omits it;
//   a raw-body route (an attachment upload, http/raw-body.ts) has not read its body yet: its
//   fingerprint is the method and the path with the query (the upload's metadata), without the bytes;
// - validation (the header: 1–255 printable ASCII characters): a request that fails it stores nothing;
// - preHandler, after authentication, rate limit and scope checks: the key is claimed, or the stored
//   response is replayed with `Idempotent-Replayed: true`, or 409/422;
// - handler: runs in one database transaction that also marks the key DONE with the serialized
//   response (db/ambient-transaction.ts), so the work and its stored response commit together, and the
//   response goes out only after that commit;
// - onSend: a 4xx the handler threw is stored as DONE (its work was rolled back; retries get the same
//   answer, as with Stripe), a 5xx deletes the claim (nothing was committed; a retry runs again), and
//   so does a 429 (refused for now, as TOO_MANY_PLANS: the same request may be done once retried).
//
// Operations whose answer or request holds a secret (`config: { revealsSecret: true }`: a new API key or
// signing secret; a password, signing in or setting one) refuse the header with 400: a stored answer
// would keep the secret, which is otherwise never stored (keys as hashes only), for 24 hours, and the
// stored fingerprint is a fast, unsalted hash of the body: a password in it could be guessed offline
// far faster than from its scrypt hash.
//
// Routes whose effect leaves the database (`config: { externalEffects: true }`: redelivering a
// webhook) are not run in a transaction — holding one, and on SQLite the only connection, through an
// outbound HTTP request is not acceptable — and their response is stored when it is sent: a crash in
// between leaves a stale claim, so a retry after STALE_CLAIM_MS runs the request again.
import { type TSchema, Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { Kysely } from 'kysely'
import { inAmbientTransaction } from '../db/ambient-transaction.js'
import type { Database } from '../db/types.js'
import type { AuthContext } from '../modules/auth/index.js'
import {
  claimKey,
  completeClaim,
  deleteClaim,
  ExpiredKeyPruner,
  fingerprintOf,
  type KeyOwner,
  STALE_CLAIM_MS,
} from '../modules/idempotency/service.js'
import { AppError, ERROR_STATUS, type ErrorCode, validationError } from './errors.js'
import { ADMIN_PREFIX, PUBLIC_PREFIX } from './openapi.js'
import { takesRawBody } from './raw-body.js'
import { appendRouteHook } from './route-hooks.js'
import { ERROR_CODE_DESCRIPTIONS, ERROR_CODES_KEYWORD, errorResponses } from './schemas.js'

export const IDEMPOTENCY_HEADER = 'idempotency-key'
export const REPLAYED_HEADER = 'idempotent-replayed'
const JSON_TYPE = 'application/json; charset=utf-8'
const ELIGIBLE_METHODS = new Set(['POST', 'PUT', 'PATCH'])
const API_PREFIXES = [`${PUBLIC_PREFIX}/`, `${ADMIN_PREFIX}/`]
/**
 * Test-only (test/idempotency-process.test.ts): the process kills itself right after an idempotent
 * request commits, before its response is sent. Never set it anywhere else.
 */
export const CRASH_AFTER_COMMIT_ENV = 'FIELDSERVICE_TEST_CRASH_AFTER_COMMIT'

/** Fastify lower-cases request header names; a custom validator compiler sees the schema as written. */
const KeyHeader = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x20-\\x7e]+$',
  description: 'Printable ASCII characters (space to ~)',
})

interface IdempotencyState {
  key: string
  /** Whose key it is: set when it is claimed, after authentication. */
  owner: KeyOwner | undefined
  fingerprint: string
  /** Set once this request holds the claim. */
  claimId: string | undefined
  /** The claim is stored (DONE), released, replayed or lost: nothing more to do with it. */
  settled: boolean
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyState | null
  }
  interface FastifyContextConfig {
    /** The handler's effect leaves the database: run it outside the ambient transaction. */
    externalEffects?: boolean
    /**
     * The answer or the request holds a secret (a new API key, a signing secret, a password): no
     * Idempotency-Key, nothing stored.
     */
    revealsSecret?: boolean
  }
}

/**
 * The credential a key belongs to: the API key, or the signed-in user (any of their sessions, so a
 * retry from a new tab still replays). Two credentials of one organisation never share a key.
 */
export function keyOwnerOf(auth: AuthContext): KeyOwner {
  return {
    organisationId: auth.organisationId,
    credential: auth.kind === 'key' ? `key:${auth.keyId}` : `user:${auth.session.userId}`,
  }
}

export interface IdempotencyOptions {
  /** The database itself (never the ambient view): claims commit on their own. */
  db: Kysely<Database>
  staleAfterMs?: number
}

type Json = Record<string, unknown>

/** The route's error responses, with the two idempotency codes added to its 409 and 422. */
function withIdempotencyErrors(response: Json | undefined): Json | undefined {
  if (!response) return response
  const next = { ...response }
  for (const code of ['IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'] as ErrorCode[]) {
    const status = ERROR_STATUS[code]
    const existing = next[status] as Json | undefined
    const codes = existing?.[ERROR_CODES_KEYWORD] as ErrorCode[] | undefined
    if (!existing) next[status] = (errorResponses(code) as Record<number, unknown>)[status]
    else if (codes)
      next[status] = {
        ...existing,
        [ERROR_CODES_KEYWORD]: [...codes, code],
        description: `${existing.description}; or ${ERROR_CODE_DESCRIPTIONS[code]} (${code})`,
      }
  }
  return next
}

function withKeyHeader(headers: unknown): TSchema {
  const properties = (headers as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {}
  return Type.Object({ ...properties, [IDEMPOTENCY_HEADER]: Type.Optional(KeyHeader) })
}

/**
 * Registers the rules above for every eligible route added after it, and prunes expired keys while
 * the app runs.
 */
export function installIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { db } = options
  const staleAfterMs = options.staleAfterMs ?? STALE_CLAIM_MS
  const crashAfterCommit = process.env[CRASH_AFTER_COMMIT_ENV] === '1'
  app.decorateRequest('idempotency', null)
  const pruner = new ExpiredKeyPruner(db, app.log)
  app.addHook('onReady', async () => pruner.start())
  app.addHook('onClose', async () => pruner.close())

  const fingerprint = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const key = request.headers[IDEMPOTENCY_HEADER]
    if (typeof key === 'string') {
      const print = fingerprintOf(
        request.method,
        request.url,
        takesRawBody(request) ? undefined : request.body,
      )
      request.idempotency = { key, owner: undefined, fingerprint: print, claimId: undefined, settled: false }
    }
    done()
  }

  // Callback-style hooks: for a request without a key each is one function call, not a promise.
  const claim = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const state = request.idempotency
    if (!state) return done()
    const owner = keyOwnerOf(request.auth)
    state.owner = owner
    claimKey(db, owner, state.key, state.fingerprint, staleAfterMs).then((outcome) => {
      if (outcome.claimed) {
        state.claimId = outcome.claimId
        return done()
      }
      // Answered here: the handler does not run (and done() is not called).
      state.settled = true
      reply.code(outcome.status).header(REPLAYED_HEADER, 'true').type(JSON_TYPE).send(outcome.body)
    }, done)
  }

  const recordOutcome = async (
    request: FastifyRequest,
    status: number,
    payload: unknown,
    claimId: string,
  ) => {
    const { key, owner } = request.idempotency as IdempotencyState
    try {
      if (status < 500 && status !== 429 && typeof payload === 'string') {
        await completeClaim(db, owner as KeyOwner, key, claimId, { status, body: payload })
      } else {
        await deleteClaim(db, owner as KeyOwner, key, claimId)
      }
    } catch (error) {
      // The answer still goes out; the claim stays RUNNING and is taken over once stale.
      request.log.warn({ err: error }, 'could not record the outcome of an idempotent request')
    }
  }

  const settle = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ) => {
    const state = request.idempotency
    if (!state?.claimId || state.settled) return done(null, payload)
    state.settled = true
    recordOutcome(request, reply.statusCode, payload, state.claimId).then(() => done(null, payload))
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = ([] as string[]).concat(route.method)
    if (!methods.some((method) => ELIGIBLE_METHODS.has(method))) return
    if (!API_PREFIXES.some((prefix) => route.url.startsWith(prefix))) return
    if (route.config?.revealsSecret) {
      const { description } = (route.schema ?? {}) as { description?: string }
      route.schema = { ...route.schema, description: `${description ?? ''}\n\n${NO_KEY_DESCRIPTION}`.trim() }
      appendRouteHook(route, 'preValidation', refuseKey)
      return
    }
    route.schema = {
      ...route.schema,
      headers: withKeyHeader(route.schema?.headers),
      response: withIdempotencyErrors(route.schema?.response as Json | undefined),
    }
    appendRouteHook(route, 'preValidation', fingerprint)
    appendRouteHook(route, 'preHandler', claim)
    appendRouteHook(route, 'onSend', settle)
    if (!route.config?.externalEffects) route.handler = inTransaction(route.handler, db, crashAfterCommit)
  })
}

const NO_KEY_DESCRIPTION =
  'Takes no `Idempotency-Key` (400 `VALIDATION_ERROR` if one is sent): the request or its answer holds a ' +
  'secret, and idempotent requests are stored.'

function refuseKey(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  if (request.headers[IDEMPOTENCY_HEADER] === undefined) {
    done()
    return
  }
  done(
    validationError(
      `/headers/${IDEMPOTENCY_HEADER}`,
      'is not accepted by this operation: the request or its answer holds a secret, and idempotent requests are stored',
    ),
  )
}

const NOT_SENT = Symbol('not sent')

type Handler = RouteOptions['handler']

/** The handler of an idempotent request, inside the transaction that stores its response. */
function inTransaction(original: Handler, db: Kysely<Database>, crashAfterCommit: boolean): Handler {
  const idempotent = async function (
    this: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
    state: IdempotencyState,
    claimId: string,
  ) {
    const owner = state.owner as KeyOwner
    const body = await inAmbientTransaction(db, async (trx) => {
      // The handler's reply.send() must not answer before the commit: keep its payload instead. What
      // send() returns stands in for the reply without its `then` (a reply is thenable and settles
      // once sent: an async handler returning it would wait for a response that waits for it).
      let sent: unknown = NOT_SENT
      // biome-ignore lint/suspicious/noThenProperty: it hides the reply's own `then`, as said above
      const standIn = Object.create(reply, { then: { value: undefined } }) as FastifyReply
      const capture = reply as unknown as { send?: (payload: unknown) => FastifyReply }
      capture.send = (payload: unknown) => {
        sent = payload
        return standIn
      }
      let result: unknown
      try {
        result = await original.call(this, request, reply)
      } finally {
        delete capture.send
      }
      // The route's response schema for this status, exactly as Fastify would have serialized it.
      const text = String(reply.serialize(sent === NOT_SENT ? result : sent))
      const response = { status: reply.statusCode, body: text }
      if (!(await completeClaim(trx, owner, state.key, claimId, response))) {
        // Taken over by a retry that judged this request dead: this one gives way, undone.
        state.settled = true
        throw new AppError(
          'IDEMPOTENCY_KEY_IN_USE',
          'This request took too long and a retry with the same Idempotency-Key took it over; nothing was done',
        )
      }
      return text
    })
    state.settled = true
    if (crashAfterCommit) process.kill(process.pid, 'SIGKILL')
    return reply.type(JSON_TYPE).send(body)
  }
  // Not async itself: without a key, the route's handler is called as if directly.
  return function handler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const state = request.idempotency
    const claimId = state?.claimId
    if (!state || !claimId) return original.call(this, request, reply)
    return idempotent.call(this, request, reply, state, claimId)
  }
}
