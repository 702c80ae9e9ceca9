// One webhook request: a signed POST with undici, one attempt, a hard time limit from connect to the
// last byte read, no redirects followed, and at most 2 KB of the answer kept for the execution log.
import { isIP } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'
import { Agent, request } from 'undici'
import type { ExecutionStatus } from '../../db/types.js'
import { hostOf, nonPublicReason, publicOnlyLookup } from './target.js'

export const USER_AGENT = 'fieldservice-webhooks/1.0'
export const RESPONSE_EXCERPT_BYTES = 2048
/** Response headers kept for the log: at most this much of name + value text. */
export const RESPONSE_HEADERS_BYTES = 4096

export interface DeliveryRequest {
  url: string
  body: string
  headers: Record<string, string>
  /** Which execution this attempt is, named in the warning a failure logs. */
  execution?: {
    organisationId: string
    automationId: string
    executionId: string
    event: string
    redeliveryOf: string | null
  }
}

export interface DeliveryResult {
  status: Exclude<ExecutionStatus, 'PENDING'>
  httpStatus: number | null
  error: string | null
  durationMs: number
  responseBody: string | null
  responseHeaders: Record<string, string> | null
}

export interface SenderOptions {
  timeoutMs: number
  allowPrivate: boolean
  /** Failed attempts are logged here at warn. */
  logger?: FastifyBaseLogger
}

/** PostgreSQL text cannot hold NUL; a receiver's answer may contain anything. */
const storable = (text: string) => text.replaceAll('\u0000', '\uFFFD')

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `Timed out: no complete answer within ${timeoutMs} ms`
  }
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  const cause = err.cause?.message && err.cause.message !== err.message ? ` (${err.cause.message})` : ''
  return storable(`${err.message ?? String(error)}${cause}`).slice(0, 1000)
}

export class WebhookSender {
  private readonly agent: Agent
  /** Attempts finished by this sender, by result (dispatcher and redeliveries): for /metrics. */
  readonly results: Record<DeliveryResult['status'], number> = { SUCCESS: 0, FAILED: 0 }

  constructor(private readonly options: SenderOptions) {
    this.agent = new Agent({
      connect: {
        timeout: options.timeoutMs,
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup as never }),
      },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4000,
    })
  }

  get timeoutMs(): number {
    return this.options.timeoutMs
  }

  async send(delivery: DeliveryRequest): Promise<DeliveryResult> {
    const result = await this.attempt(delivery)
    this.results[result.status] += 1
    if (result.status === 'FAILED') {
      // Only the origin: a receiver's path or query may carry a token of its own.
      const target = new URL(delivery.url).origin
      this.options.logger?.warn(
        { ...delivery.execution, target, httpStatus: result.httpStatus, error: result.error },
        'webhook delivery failed',
      )
    }
    return result
  }

  private async attempt({ url, body, headers }: DeliveryRequest): Promise<DeliveryResult> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const failed = (
      error: string,
      httpStatus: number | null = null,
      responseBody: string | null = null,
      responseHeaders: Record<string, string> | null = null,
    ) => ({
      status: 'FAILED' as const,
      httpStatus,
      error,
      durationMs: elapsed(),
      responseBody,
      responseHeaders,
    })
    const target = new URL(url)
    const host = hostOf(target)
    // A literal address never goes through DNS, so the lookup guard cannot see it: check it here.
    const reason = !this.options.allowPrivate && isIP(host) ? nonPublicReason(host) : null
    if (reason) return failed(`${host} is a non-public address (${reason}); not delivered`)
    const signal = AbortSignal.timeout(this.options.timeoutMs)
    try {
      const response = await request(target, {
        method: 'POST',
        dispatcher: this.agent,
        signal,
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers },
        body,
      })
      const responseBody = await readExcerpt(response.body)
      const responseHeaders = keptHeaders(response.headers)
      const code = response.statusCode
      if (code >= 200 && code < 300) {
        return {
          status: 'SUCCESS',
          httpStatus: code,
          error: null,
          durationMs: elapsed(),
          responseBody,
          responseHeaders,
        }
      }
      const reason =
        code >= 300 && code < 400
          ? `Answered HTTP ${code}; redirects are not followed`
          : `Answered HTTP ${code}; not retried`
      return failed(reason, code, responseBody, responseHeaders)
    } catch (error) {
      return failed(describeFailure(signal.aborted ? signal.reason : error, this.options.timeoutMs))
    }
  }

  close(): Promise<void> {
    return this.agent.close()
  }
}

/**
 * The receiver's headers for the log, in the order received: set-cookie left out (a receiver's
 * session is none of our business), repeated headers joined with ", ", and no more than
 * RESPONSE_HEADERS_BYTES of text in all (later headers are dropped).
 */
function keptHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {}
  let size = 0
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined || name.toLowerCase() === 'set-cookie') continue
    const value = storable(Array.isArray(raw) ? raw.join(', ') : raw)
    size += name.length + value.length
    if (size > RESPONSE_HEADERS_BYTES) break
    kept[name.toLowerCase()] = value
  }
  return kept
}

/** Reads up to RESPONSE_EXCERPT_BYTES of a body as text, then drops the rest of it. */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    chunks.push(chunk)
    size += chunk.length
    if (size >= RESPONSE_EXCERPT_BYTES) break // leaving the loop destroys the stream
  }
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES)
  return storable(new TextDecoder('utf-8', { fatal: false }).decode(bytes))
}
