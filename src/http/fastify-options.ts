// The options the Fastify instance is created with: the listening server's limits, logging, the
// trusted proxies, the router, request ids and the answer to URLs Fastify cannot route.
import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { FastifyHttpOptions, FastifyReply, FastifyServerOptions } from 'fastify'
import type { Config } from '../config.js'
import { lazyChildLogger, RequestLines, writesInfo } from './request-logger.js'
import { SERVER_LIMIT_DEFAULTS, type ServerLimits, serverOptions } from './server-limits.js'
import { ROUTER_OPTIONS } from './unrouted.js'

/** Printable ASCII, at most 128 characters: what a client may choose as its request id. */
const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/

export interface FastifySettings {
  config: Pick<Config, 'bodyLimitBytes'> & Partial<Pick<Config, 'trustProxy'>>
  logger?: FastifyServerOptions['logger']
}

export function fastifyOptions(limits: ServerLimits, settings: FastifySettings): FastifyHttpOptions<Server> {
  return {
    // Header, request, keep-alive and idle timeouts of the listening server (tests through inject()
    // never listen).
    ...serverOptions(limits),
    logger: settings.logger ?? false,
    childLoggerFactory: lazyChildLogger,
    // Request lines are info lines: at a level that drops them, they are not even attempted.
    logController: new RequestLines(writesInfo(settings.logger)),
    bodyLimit: settings.config.bodyLimitBytes,
    // The client address (logs, the per-IP and sign-in limits) and protocol (the session cookie's
    // Secure flag): X-Forwarded-* only from the proxies TRUST_PROXY names.
    trustProxy: trustedProxies(settings.config.trustProxy ?? false),
    // Long enough for any id we issue; a longer one is simply not found.
    routerOptions: ROUTER_OPTIONS,
    // A client's own x-request-id is kept when it is a sane token (it is echoed in a header and
    // written to the logs); anything else gets a fresh id.
    requestIdHeader: false,
    genReqId: (request) => {
      const id = request.headers['x-request-id']
      return typeof id === 'string' && CLIENT_REQUEST_ID.test(id) ? id : randomUUID()
    },
    // URLs Fastify cannot route get our error body too: a parameter longer than any id we issue is
    // simply not found; broken percent-encoding is a bad request.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      const path = request.url.split('?')[0]
      reply
        .code(tooLong ? 404 : 400)
        .header('x-request-id', request.id)
        .send(
          tooLong
            ? { error: `Route ${request.method} ${path} not found`, code: 'NOT_FOUND' }
            : { error: 'The URL is not valid (malformed percent-encoding)', code: 'VALIDATION_ERROR' },
        )
    },
    return503OnClosing: true,
  }
}

/** The server limits given, the defaults for the others. */
export function serverLimitsOf(config: Partial<ServerLimits>): ServerLimits {
  const limits = { ...SERVER_LIMIT_DEFAULTS }
  for (const name of Object.keys(limits) as (keyof ServerLimits)[]) {
    const value = config[name]
    if (value !== undefined) limits[name] = value
  }
  return limits
}

/** A hop count as the function Fastify's types ask for (its runtime takes the number too). */
function trustedProxies(
  setting: Config['trustProxy'],
): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting
}
