// Every request gets its own logger carrying its id (Fastify's `reqId`). Pino builds a child logger
// eagerly — its bindings serialised to JSON — although at the usual levels most requests log nothing.
// This one builds it on the first line actually written: a level that is off costs a comparison.
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify'

type Bindings = Record<string, unknown>
type LogFn = (...args: unknown[]) => void

/** Pino's level numbers; a level it does not know (`silent`, a logger turned off) writes nothing. */
const LEVELS: Record<string, number> = { fatal: 60, error: 50, warn: 40, info: 30, debug: 20, trace: 10 }

class RequestLogger {
  private real: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: object,
  ) {}

  get level(): string {
    return (this.real ?? this.parent).level
  }

  set level(level: string) {
    this.child().level = level
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args)
  }
  error(...args: unknown[]): void {
    this.write('error', args)
  }
  warn(...args: unknown[]): void {
    this.write('warn', args)
  }
  info(...args: unknown[]): void {
    this.write('info', args)
  }
  debug(...args: unknown[]): void {
    this.write('debug', args)
  }
  trace(...args: unknown[]): void {
    this.write('trace', args)
  }
  silent(): void {}

  child(bindings?: Bindings, options?: object): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings, this.options)
    return bindings ? this.real.child(bindings, options) : this.real
  }

  private write(level: string, args: unknown[]): void {
    const threshold = LEVELS[this.level]
    if (threshold === undefined || (LEVELS[level] as number) < threshold) return
    ;(this.child()[level as 'info'] as LogFn)(...args)
  }
}

/**
 * Whether a logger made from these options writes info lines, as Fastify's request lines are
 * ("incoming request", "request completed"). A route that lowers its own level (health.ts: warn)
 * only ever writes less.
 */
export function writesInfo(logger: unknown): boolean {
  if (logger === true) return true
  if (typeof logger !== 'object' || logger === null) return false
  const level = (logger as { level?: unknown }).level
  if (level === undefined) return true // pino's default level is info
  const threshold = typeof level === 'string' ? LEVELS[level] : undefined
  return threshold !== undefined && threshold <= (LEVELS.info as number)
}

/**
 * Fastify's request lines, skipped outright at a level that drops them (LOG_LEVEL=warn, no logger)
 * instead of two logger calls per request that write nothing. A request that failed is still logged,
 * at error, as Fastify logs it; its other lines (stream errors, 404s) are untouched.
 */
export class RequestLines extends LogController {
  constructor(private readonly info: boolean) {
    super()
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.info) super.incomingRequest(request, reply)
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.info || error) super.requestCompleted(error, request, reply)
  }
}

/** Fastify's `childLoggerFactory`: a request's logger, made when it first writes. */
export function lazyChildLogger(
  this: unknown,
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: object,
): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger
}
