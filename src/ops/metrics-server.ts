// The Prometheus endpoint, on a port of its own: metrics stay off the public API port (and so off
// the load balancer), and a scrape never queues behind API traffic in Fastify's hooks. A bare
// node:http server is enough for one route.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface MetricsServerOptions {
  host: string
  port: number
  /** The exposition text; called once per scrape. */
  scrape(): Promise<{ contentType: string; body: string }>
  onError?(error: unknown): void
}

export interface MetricsServer {
  url: string
  close(): Promise<void>
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = request.url?.split('?')[0]
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found: try /metrics\n')
      return
    }
    options.scrape().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' })
        response.end(request.method === 'HEAD' ? undefined : body)
      },
      (error) => {
        options.onError?.(error)
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n')
      },
    )
  })
  // Scrapers reconnect every interval anyway; idle sockets must not hold up shutdown.
  server.keepAliveTimeout = 5000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { address, port } = server.address() as AddressInfo
  const host = address.includes(':') ? `[${address}]` : address
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
