// The part of autocannon's programmatic API that load.ts uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  export interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request | undefined
  }

  export interface Options {
    url: string
    connections?: number
    /** Requests per second across all connections. */
    overallRate?: number
    duration?: number
    pipelining?: number
    timeout?: number
    headers?: Record<string, string>
    requests?: Request[]
  }

  export interface Result {
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    statusCodeStats: Record<string, { count: number }>
    requests: { total: number; average: number }
    latency: { p50: number; p99: number; max: number }
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void,
    ): this
    on(event: string, listener: (...args: unknown[]) => void): this
    stop(): void
  }

  function autocannon(options: Options): Instance
  export default autocannon
}
