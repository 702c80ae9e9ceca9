// Every request gets its own logger carrying its id (Fastify's `reqId`). Pino builds a child logger
// eagerly — its bindings serialised to JSON — although at the usual levels most requests log nothing.
// This one builds it on the first line actually written: a level that is off costs a comparison.
import type { FastifyBaseLogger } from 'fastify'

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

/** Fastify's `childLoggerFactory`: a request's logger, made when it first writes. */
export function lazyChildLogger(
  this: unknown,
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: object,
): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger
}
