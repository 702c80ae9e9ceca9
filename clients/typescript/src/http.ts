// One HTTP call of the client, attempts included: URL and headers, an Idempotency-Key on writes,
// a timeout per attempt, retries with exponential backoff and jitter (429 always, after Retry-After;
// a lost connection or a 502/503/504 when repeating the request is safe), and the envelope unwrapped.
import {
  type ErrorDetail,
  FieldserviceConnectionError,
  FieldserviceError,
  type FieldserviceErrorCode,
} from './errors.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ClientOptions {
  /**
   * Where the service answers, e.g. `https://fieldservice.example.com`. The API's base path
   * (`/v1/public`) is added unless the URL already ends with it.
   */
  baseUrl: string
  /** An API key, `svc_live_…`: sent as `Authorization: Bearer …` and nowhere else. */
  apiKey: string
  /** Attempts per call, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number
  /** Time allowed to each attempt, answer body included, in milliseconds (default 30 000; 0: none). */
  timeoutMs?: number
  /** Send a fresh `Idempotency-Key` with every POST, PUT and PATCH (default true). */
  idempotencyKeys?: boolean
  /** First backoff delay, doubled at every attempt, with jitter (default 500 ms). */
  retryBaseDelayMs?: number
  /**
   * The longest the client waits before a retry (default 60 000 ms): an answer asking for a longer
   * wait (`Retry-After`) is thrown at once instead.
   */
  maxRetryDelayMs?: number
  /** Headers sent with every request (a per-call header of the same name wins). */
  headers?: Record<string, string>
  /** The fetch to use (default: the global one); a wrapper can log, trace or fake the network. */
  fetch?: typeof fetch
}

export interface RequestOptions {
  /** Extra headers for this call only, e.g. `{ 'If-Match': etag }` or `{ 'X-Request-Id': id }`. */
  headers?: Record<string, string>
  /**
   * The `Idempotency-Key` of this call (POST, PUT, PATCH): your own value — say, the id of the
   * record in your system, so a retry after your process restarts is recognised too — or `false` to
   * send none. By default a random UUID, the same on every retry of the call.
   */
  idempotencyKey?: string | false
  /** Cancels the call, retries and waits included; the call rejects with the signal's reason. */
  signal?: AbortSignal
  timeoutMs?: number
  maxAttempts?: number
}

/** What came with a successful answer besides its data: see `responseOf`. */
export interface ResponseInfo {
  status: number
  headers: Headers
  /** `X-Request-Id`. */
  requestId: string | undefined
  /** `ETag`, when the resource has one. */
  etag: string | undefined
  /** True when the answer is the stored one of an earlier request with the same Idempotency-Key. */
  replayed: boolean
  /** The Idempotency-Key the call sent, if any. */
  idempotencyKey: string | undefined
  /** How many attempts the call took. */
  attempts: number
}

const responses = new WeakMap<object, ResponseInfo>()

/**
 * The status and headers of the answer a method's result came from:
 * `responseOf(await client.jobs.get(id))?.etag`. Undefined for anything else.
 */
export function responseOf(data: unknown): ResponseInfo | undefined {
  return typeof data === 'object' && data !== null ? responses.get(data) : undefined
}

const WRITES: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH'])
/** Methods whose repetition has the effect of one request (RFC 9110 §9.2.2). */
const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE'])
const GATEWAY_ERRORS: ReadonlySet<number> = new Set([502, 503, 504])

type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[]

export interface RequestInput {
  query?: object | undefined
  body?: unknown
}

export class HttpClient {
  private readonly baseUrl: string
  private readonly apiKey: string
  private readonly fetch: typeof fetch
  private readonly maxAttempts: number
  private readonly timeoutMs: number
  private readonly idempotencyKeys: boolean
  private readonly retryBaseDelayMs: number
  private readonly maxRetryDelayMs: number
  private readonly headers: Record<string, string>

  constructor(options: ClientOptions, basePath: string) {
    if (!options.baseUrl) throw new TypeError('FieldserviceClient: baseUrl is required')
    if (!options.apiKey) throw new TypeError('FieldserviceClient: apiKey is required')
    const url = options.baseUrl.replace(/\/+$/, '')
    this.baseUrl = url.endsWith(basePath) ? url : url + basePath
    this.apiKey = options.apiKey
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3)
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.idempotencyKeys = options.idempotencyKeys ?? true
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 500
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000
    this.headers = options.headers ?? {}
  }

  /** Sends one call, retrying as allowed, and answers the envelope's `data`. */
  async request<T>(
    method: HttpMethod,
    path: string,
    input: RequestInput = {},
    options: RequestOptions = {},
  ): Promise<T> {
    const url = this.baseUrl + path + queryString(input.query)
    const headers = new Headers({ accept: 'application/json', ...this.headers, ...options.headers })
    headers.set('authorization', `Bearer ${this.apiKey}`)
    const body = input.body === undefined ? undefined : JSON.stringify(input.body)
    if (body !== undefined) headers.set('content-type', 'application/json')
    const idempotencyKey = this.idempotencyKeyFor(method, headers, options)
    if (idempotencyKey !== undefined) headers.set('idempotency-key', idempotencyKey)
    // Sending it again cannot do the work twice: the method says so, or the server deduplicates.
    const repeatable = IDEMPOTENT.has(method) || idempotencyKey !== undefined
    const maxAttempts = Math.max(1, options.maxAttempts ?? this.maxAttempts)
    const timeoutMs = options.timeoutMs ?? this.timeoutMs

    for (let attempt = 1; ; attempt++) {
      const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined
      const signals = [timeout, options.signal].filter((s): s is AbortSignal => s !== undefined)
      let response: Response
      let text: string
      try {
        response = await this.fetch(url, {
          method,
          headers,
          body,
          signal: signals.length > 0 ? AbortSignal.any(signals) : null,
        })
        text = await response.text()
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason
        const timedOut = timeout?.aborted === true
        if (!repeatable || attempt >= maxAttempts) {
          const what = timedOut ? `timed out after ${timeoutMs} ms` : 'failed'
          throw new FieldserviceConnectionError(
            `${method} ${path} ${what} (${attempt} attempt${attempt === 1 ? '' : 's'})`,
            { cause: error, timedOut, attempts: attempt },
          )
        }
        await sleep(this.backoff(attempt), options.signal)
        continue
      }

      if (response.ok) {
        return unwrap<T>(response, text, { idempotencyKey, attempts: attempt })
      }
      const error = errorOf(response, text)
      const delay = this.retryDelay(error, attempt, repeatable)
      if (delay === undefined || attempt >= maxAttempts) throw error
      await sleep(delay, options.signal)
    }
  }

  private idempotencyKeyFor(
    method: HttpMethod,
    headers: Headers,
    options: RequestOptions,
  ): string | undefined {
    const given = headers.get('idempotency-key')
    if (given !== null) return given
    if (!WRITES.has(method) || options.idempotencyKey === false) return undefined
    if (typeof options.idempotencyKey === 'string') return options.idempotencyKey
    return this.idempotencyKeys ? globalThis.crypto.randomUUID() : undefined
  }

  /** How long to wait before retrying after `error`, or undefined when it must not be retried. */
  private retryDelay(error: FieldserviceError, attempt: number, repeatable: boolean): number | undefined {
    let delay: number | undefined
    const asked = error.retryAfterSeconds
    // A 429 is refused before the request runs: repeating it is always safe.
    if (error.status === 429 || (GATEWAY_ERRORS.has(error.status) && repeatable)) {
      delay =
        asked === undefined ? this.backoff(attempt) : asked * 1000 + Math.random() * this.retryBaseDelayMs
    } else if (error.code === 'IDEMPOTENCY_KEY_IN_USE') {
      // The first request with this key is still running: ask again a moment later.
      delay = this.backoff(attempt)
    }
    return delay !== undefined && delay <= this.maxRetryDelayMs ? delay : undefined
  }

  /** Exponential backoff with "equal jitter": between half and all of base × 2^(attempt − 1). */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.maxRetryDelayMs, this.retryBaseDelayMs * 2 ** (attempt - 1))
    return ceiling / 2 + (Math.random() * ceiling) / 2
  }
}

function queryString(query: object | undefined): string {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query) as [string, QueryValue][]) {
    if (value === undefined || value === null) continue
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item))
    else params.append(name, String(value))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

function parseJson(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function unwrap<T>(
  response: Response,
  text: string,
  call: { idempotencyKey: string | undefined; attempts: number },
): T {
  if (response.status === 204) return undefined as T
  const body = parseJson(text)
  if (typeof body !== 'object' || body === null || !('data' in body)) {
    throw new FieldserviceError({
      status: response.status,
      code: 'UNEXPECTED_RESPONSE',
      message: `Expected a JSON { data } envelope, got: ${text.slice(0, 200)}`,
      requestId: response.headers.get('x-request-id') ?? undefined,
      headers: response.headers,
      body,
    })
  }
  const data = body.data as T
  if (typeof data === 'object' && data !== null) {
    responses.set(data, {
      status: response.status,
      headers: response.headers,
      requestId: response.headers.get('x-request-id') ?? undefined,
      etag: response.headers.get('etag') ?? undefined,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      idempotencyKey: call.idempotencyKey,
      attempts: call.attempts,
    })
  }
  return data
}

function errorOf(response: Response, text: string): FieldserviceError {
  const body = parseJson(text)
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  let code: FieldserviceErrorCode = 'UNEXPECTED_RESPONSE'
  if (response.status === 304) code = 'NOT_MODIFIED'
  else if (typeof fields.code === 'string') code = fields.code as FieldserviceErrorCode
  const message =
    typeof fields.error === 'string'
      ? fields.error
      : response.status === 304
        ? 'Not modified: the resource still matches If-None-Match'
        : `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`
  return new FieldserviceError({
    status: response.status,
    code,
    message,
    details: Array.isArray(fields.details) ? (fields.details as ErrorDetail[]) : [],
    retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
    requestId: response.headers.get('x-request-id') ?? undefined,
    headers: response.headers,
    body,
  })
}

/** `Retry-After` as seconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const done = () => {
      signal?.removeEventListener('abort', aborted)
      resolve()
    }
    const aborted = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', aborted, { once: true })
  })
}
