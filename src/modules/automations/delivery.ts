// One webhook request: a signed POST with undici, one attempt, a hard time limit from connect to the
// last byte read, no redirects followed, and at most 2 KB of the answer kept for the execution log.
import { isIP } from 'node:net'
import { Agent, request } from 'undici'
import type { ExecutionStatus } from '../../db/types.js'
import { hostOf, isNonPublicAddress, publicOnlyLookup } from './target.js'

export const USER_AGENT = 'fieldservice-webhooks/1.0'
export const RESPONSE_EXCERPT_BYTES = 2048

export interface DeliveryRequest {
  url: string
  body: string
  headers: Record<string, string>
}

export interface DeliveryResult {
  status: Exclude<ExecutionStatus, 'PENDING'>
  httpStatus: number | null
  error: string | null
  durationMs: number
  responseBody: string | null
}

export interface SenderOptions {
  timeoutMs: number
  allowPrivate: boolean
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
    return result
  }

  private async attempt({ url, body, headers }: DeliveryRequest): Promise<DeliveryResult> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const failed = (error: string, httpStatus: number | null = null, responseBody: string | null = null) => ({
      status: 'FAILED' as const,
      httpStatus,
      error,
      durationMs: elapsed(),
      responseBody,
    })
    const target = new URL(url)
    const host = hostOf(target)
    // A literal address never goes through DNS, so the lookup guard cannot see it: check it here.
    if (!this.options.allowPrivate && isIP(host) && isNonPublicAddress(host)) {
      return failed(`${host} is a non-public address; not delivered`)
    }
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
      const code = response.statusCode
      if (code >= 200 && code < 300) {
        return { status: 'SUCCESS', httpStatus: code, error: null, durationMs: elapsed(), responseBody }
      }
      const reason =
        code >= 300 && code < 400
          ? `Answered HTTP ${code}; redirects are not followed`
          : `Answered HTTP ${code}; not retried`
      return failed(reason, code, responseBody)
    } catch (error) {
      return failed(describeFailure(signal.aborted ? signal.reason : error, this.options.timeoutMs))
    }
  }

  close(): Promise<void> {
    return this.agent.close()
  }
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
