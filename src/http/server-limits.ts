// How long a client may take and how many connections it may hold. Without these a client sending
// its body a byte a second held a connection and a file descriptor forever (Fastify sets no request
// timeout by default), and nothing bounded the number of open connections (issue 13).
//
//   headers     the request line and headers must arrive within this (Node's headersTimeout)
//   request     the whole request, body included, within this (requestTimeout); the answer may
//               take longer
//   keep-alive  an idle connection between requests is closed after this (keepAliveTimeout); keep
//               it above the load balancer's own idle timeout, so the balancer closes first
//   idle        a connection on which nothing moves either way is closed after this, e.g. a client
//               that stops reading its answer (the socket timeout, Fastify's connectionTimeout)
//   connections beyond this many open at once, new ones are closed as they arrive (maxConnections)
//
// Node answers a request cut by the headers or request timeout with 408 and closes the connection.
import type { Server } from 'node:http'
import type { FastifyBaseLogger, FastifyHttpOptions } from 'fastify'

export interface ServerLimits {
  httpHeadersTimeoutMs: number
  httpRequestTimeoutMs: number
  httpKeepAliveTimeoutMs: number
  httpIdleTimeoutMs: number
  /** 0: no cap. */
  httpMaxConnections: number
}

export const SERVER_LIMIT_DEFAULTS: ServerLimits = {
  httpHeadersTimeoutMs: 10_000,
  httpRequestTimeoutMs: 30_000,
  // Above the 60 s idle timeout of common load balancers (nginx upstream keepalive, AWS ALB).
  httpKeepAliveTimeoutMs: 72_000,
  httpIdleTimeoutMs: 60_000,
  httpMaxConnections: 1000,
}

/**
 * Node checks the header and request timeouts of open connections every so often (30 s by
 * default, which would let a 10 s timeout run to 40 s): a quarter of the shorter one, at most 1 s.
 */
function checkingIntervalMs(limits: ServerLimits): number {
  const shortest = Math.min(limits.httpHeadersTimeoutMs, limits.httpRequestTimeoutMs)
  return Math.max(10, Math.min(1000, Math.floor(shortest / 4)))
}

/** The options of Fastify (and of the node:http server it creates) that apply the limits. */
export function serverOptions(limits: ServerLimits): Partial<FastifyHttpOptions<Server>> {
  return {
    requestTimeout: limits.httpRequestTimeoutMs,
    keepAliveTimeout: limits.httpKeepAliveTimeoutMs,
    connectionTimeout: limits.httpIdleTimeoutMs,
    http: {
      headersTimeout: limits.httpHeadersTimeoutMs,
      requestTimeout: limits.httpRequestTimeoutMs,
      keepAliveTimeout: limits.httpKeepAliveTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
    },
  }
}

const DROP_WARNING_INTERVAL_MS = 60_000

/**
 * The connection cap is a property of the listening server, set once it exists. Connections it turns
 * away are counted and logged once a minute at most, so a flood cannot flood the log too.
 */
export function capConnections(server: Server, limits: ServerLimits, log: FastifyBaseLogger): void {
  if (limits.httpMaxConnections === 0) return
  server.maxConnections = limits.httpMaxConnections
  let dropped = 0
  let lastWarning = 0
  server.on('drop', () => {
    dropped++
    const now = Date.now()
    if (now - lastWarning < DROP_WARNING_INTERVAL_MS) return
    lastWarning = now
    log.warn(
      { maxConnections: limits.httpMaxConnections, droppedSinceLastWarning: dropped },
      'connections refused: HTTP_MAX_CONNECTIONS are open',
    )
    dropped = 0
  })
}
