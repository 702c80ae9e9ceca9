// Requests no route takes: a path nobody serves (404 NOT_FOUND), a path served for other methods
// (405 METHOD_NOT_ALLOWED with `Allow`), and OPTIONS on a served path (204 with `Allow`). They are
// answered in onRequest, before the body is read: Fastify would otherwise parse a JSON body for its
// not-found handler, and a 1 MiB hostile one cost ~120 ms of CPU each (issue 13).
//
// Fastify's router matches a URL but cannot say which methods a path has, so every route is also
// recorded, path by method, in a router of our own (find-my-way, the one Fastify is built on,
// configured the same way) that only answers that question.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import FindMyWay from 'find-my-way'
import { AppError } from './errors.js'

/** Options shared with the app's own router, so both agree on what a path is. */
export const ROUTER_OPTIONS = { maxParamLength: 200, ignoreTrailingSlash: true } as const

/** Every method a route of this app can be declared with; OPTIONS is answered here for every path. */
const ROUTABLE_METHODS: FindMyWay.HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

export class RouteMethods {
  private readonly router = FindMyWay(ROUTER_OPTIONS)
  private readonly declared = new Set<string>()

  add(methods: string | string[], url: string): void {
    for (const method of [methods].flat()) {
      // A GET route also answers HEAD (Fastify adds it unless told not to; declaring both is harmless).
      for (const each of method === 'GET' ? ['GET', 'HEAD'] : [method]) {
        const key = `${each} ${url}`
        if (this.declared.has(key)) continue
        this.declared.add(key)
        this.router.on(each as FindMyWay.HTTPMethod, url, () => {})
      }
    }
  }

  /** The methods `url` (path and query) is served with, in a stable order; empty when none. */
  allowed(url: string): string[] {
    return ROUTABLE_METHODS.filter((method) => this.router.find(method, url) !== null)
  }
}

const pathOf = (url: string) => url.split('?', 1)[0] as string

/** `Allow` lists OPTIONS too: it is answered for every path that exists. */
const allowHeader = (methods: string[]) => [...methods, 'OPTIONS'].join(', ')

/**
 * The answer to a request no route took, thrown as a coded error (or sent, for OPTIONS), so it has
 * the usual `{ error, code }` body and headers.
 */
export function answerUnrouted(methods: RouteMethods, request: FastifyRequest, reply: FastifyReply): void {
  const path = pathOf(request.url)
  const allowed = methods.allowed(request.url)
  // Served for this very method, yet not found: a route that looked and found nothing (a missing
  // dashboard asset) — 404, not 405.
  if (allowed.length === 0 || allowed.includes(request.method)) {
    throw new AppError('NOT_FOUND', `Route ${request.method} ${path} not found`)
  }
  reply.header('allow', allowHeader(allowed))
  if (request.method === 'OPTIONS') {
    reply.code(204).send()
    return
  }
  throw new AppError(
    'METHOD_NOT_ALLOWED',
    `Method ${request.method} is not allowed on ${path}; it takes ${allowed.join(', ')}`,
  )
}

/**
 * Register before any route. `limit` runs first on these requests (the per-IP limit: no key is asked
 * for an unknown path). The not-found handler stays as the last resort with the same answer.
 */
export function installUnroutedAnswers(app: FastifyInstance, limit?: Hook): RouteMethods {
  const methods = new RouteMethods()
  app.addHook('onRoute', (route: RouteOptions) => {
    // The dashboard's catch-all GET serves the SPA's own paths; it does not make every path exist.
    if ((route.config as { spaFallback?: boolean } | undefined)?.spaFallback) return
    methods.add(route.method, route.url)
  })
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) {
      done()
      return
    }
    const answer = () => {
      try {
        answerUnrouted(methods, request, reply)
      } catch (error) {
        done(error as Error)
      }
    }
    if (limit) limit(request, reply).then(answer, done)
    else answer()
  })
  app.setNotFoundHandler((request, reply) => answerUnrouted(methods, request, reply))
  return methods
}
