// Optimistic concurrency (an addition to the spec; docs/integrators.md). Every single-resource
// answer carries a strong ETag: a digest of the answer's body exactly as sent (its `data` and the
// constant message), so it changes whenever anything the client sees does — a job's tags, its
// customer's address — not only its own row. A GET with If-None-Match naming it → 304 without a body. A PATCH or DELETE with If-Match →
// the resource is locked, its current ETag computed from what its GET would answer, and 412
// PRECONDITION_FAILED when it differs, before anything is done; the check and the write are one
// transaction, so two systems editing one job never overwrite each other unseen. Without these
// headers nothing changes.
import { hash } from 'node:crypto'
import { type TSchema, Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { Kysely } from 'kysely'
import { inAmbientTransactionOrJoin } from '../db/ambient-transaction.js'
import { isPostgres } from '../db/database.js'
import { lockForUpdate } from '../db/locking.js'
import type { Database } from '../db/types.js'
import { AppError } from './errors.js'
import { appendRouteHook } from './route-hooks.js'
import { SUCCESS } from './schemas.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route answers one resource: its 200/201 carries an ETag (see the top of etags.ts). */
    etag?: EtagConfig
  }
}

export interface EtagConfig {
  /**
   * For PATCH and DELETE: the table of the resource (its row is locked before the check), what its
   * GET answers as `data` now (throws 404 when it does not exist) and the GET's 200 response schema,
   * which serialises it byte for byte as the GET would.
   */
  precondition?: Precondition
}

export interface Precondition {
  table: 'jobs' | 'customers'
  current: (request: FastifyRequest<{ Params: { id: string } }>) => Promise<unknown>
  schema: TSchema
}

/**
 * The strong ETag of an answer's body as serialised: its SHA-1, one-shot (no Hash object), 27
 * base64url characters. A version tag, not a secret: what matters is that two states of one resource
 * never share one. Hashing the body Fastify has already serialised costs ≈ 1 µs for a job; the data
 * stringified again for the purpose cost ≈ 3 µs more (measured).
 */
export function etagOfBody(body: string): string {
  return `"${hash('sha1', body, 'base64url')}"`
}

/** Whether an If-None-Match / If-Match value names `etag` (a list, `*`, or weak forms of it). */
export function matches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag)
}

const IF_MATCH_DESCRIPTION =
  'The ETag of the resource as you last read it: the change is made only if it is still current, else ' +
  '412 PRECONDITION_FAILED and nothing is done (optimistic concurrency). `*` matches any existing version.'
const IF_NONE_MATCH_DESCRIPTION =
  'The ETag of the version you have: 304 Not Modified, without a body, while it is still current.'

type Handler = RouteOptions['handler']
type Json = Record<string, unknown>

export function installEtags(app: FastifyInstance, db: Kysely<Database>): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const config = route.config?.etag
    if (!config) return
    const methods = ([] as string[]).concat(route.method)
    // HEAD shares GET's schema (Fastify's exposeHeadRoutes): it gets the same header and 304.
    const isGet = methods.includes('GET') || methods.includes('HEAD')
    appendRouteHook(route, 'onSend', isGet ? addEtagOrNotModified : addEtag)
    const { precondition } = config
    if (precondition) route.handler = checkedFirst(route.handler, db, precondition)
    route.schema = {
      ...route.schema,
      headers: withHeader(
        route.schema?.headers as Json | undefined,
        isGet ? 'if-none-match' : precondition ? 'if-match' : undefined,
      ),
      response: {
        ...(route.schema?.response as Json),
        ...(isGet
          ? { 304: { description: 'Not Modified: your copy (If-None-Match) is current', type: 'null' } }
          : {}),
      },
    }
  })
}

type OnSendDone = (e: null, p: unknown) => void

function etagFor(request: FastifyRequest, reply: FastifyReply, payload: unknown): string | undefined {
  const status = reply.statusCode
  // A DELETE answers a receipt, not the resource: no version to name.
  if (request.method === 'DELETE' || (status !== 200 && status !== 201) || typeof payload !== 'string')
    return undefined
  const etag = etagOfBody(payload)
  reply.header('etag', etag)
  return etag
}

function addEtag(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: OnSendDone) {
  etagFor(request, reply, payload)
  done(null, payload)
}

function addEtagOrNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: OnSendDone,
) {
  const etag = etagFor(request, reply, payload)
  const wanted = request.headers['if-none-match']
  if (etag !== undefined && reply.statusCode === 200 && typeof wanted === 'string' && matches(wanted, etag)) {
    reply.code(304)
    reply.removeHeader('content-type')
    reply.removeHeader('content-length')
    done(null, null)
    return
  }
  done(null, payload)
}

/** Runs the If-Match check, then the handler, in one transaction (joining an idempotent request's). */
function checkedFirst(original: Handler, db: Kysely<Database>, precondition: Precondition): Handler {
  return function handler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const wanted = request.headers['if-match']
    if (typeof wanted !== 'string') return original.call(this, request, reply)
    const typed = request as FastifyRequest<{ Params: { id: string } }>
    return inAmbientTransactionOrJoin(db, async (trx) => {
      // SQLite's one writer holds every row already: the read would only cost time.
      if (isPostgres(trx)) {
        const row = trx
          .selectFrom(precondition.table)
          .select('id')
          .where('organisation_id', '=', request.auth.organisationId)
          .where('id', '=', typed.params.id)
        await lockForUpdate(trx, row).execute()
      }
      const serialize = reply.compileSerializationSchema(precondition.schema)
      const current = etagOfBody(serialize({ data: await precondition.current(typed), message: SUCCESS }))
      if (!matches(wanted, current)) {
        reply.header('etag', current)
        throw new AppError(
          'PRECONDITION_FAILED',
          'If-Match does not name the current version: the resource changed since you read it. Read it again ' +
            '(its ETag is in this answer), then decide',
        )
      }
      return original.call(this, request, reply)
    })
  }
}

function withHeader(headers: Json | undefined, name: string | undefined): Json | TSchema | undefined {
  if (!name) return headers
  const properties = (headers?.properties ?? {}) as Record<string, TSchema>
  const description = name === 'if-match' ? IF_MATCH_DESCRIPTION : IF_NONE_MATCH_DESCRIPTION
  return Type.Object({ ...properties, [name]: Type.Optional(Type.String({ maxLength: 1000, description })) })
}
