// The client's HTTP layer against a scripted local server (no database): which answers are retried
// and which are not, timeouts, cancellation, Retry-After, and answers that are not the API's JSON.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { retryAfterSeconds } from '../../clients/typescript/src/http.js'
import {
  FieldserviceClient,
  FieldserviceConnectionError,
  FieldserviceError,
  responseOf,
} from '../../clients/typescript/src/index.js'

type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang'

interface Seen {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

const JOB = { id: 'j1', title: 'Boiler' }
const ok = (data: unknown = { job: JOB }): Answer => ({ status: 200, body: { data, message: 'Success' } })
const failure = (status: number, code: string, headers: Record<string, string> = {}): Answer => ({
  status,
  headers,
  body: { error: `${code} happened`, code },
})

describe('the TypeScript client over HTTP', () => {
  let server: Server
  let origin: string
  let script: Answer[] = []
  let seen: Seen[] = []
  const hanging = new Set<ServerResponse>()

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        seen.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString(),
        })
        const answer = script.shift() ?? ok()
        if (answer === 'hang') {
          hanging.add(response)
          return
        }
        const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? '')
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        response.end(answer.status === 304 ? undefined : text)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    for (const response of hanging) response.destroy()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  beforeEach(() => {
    script = []
    seen = []
  })

  const client = (options: Partial<ConstructorParameters<typeof FieldserviceClient>[0]> = {}) =>
    new FieldserviceClient({ baseUrl: origin, apiKey: 'svc_live_test', retryBaseDelayMs: 5, ...options })
  const caught = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (error: unknown) => error,
    )

  it('builds the URL, query and headers of a call', async () => {
    await client({ baseUrl: `${origin}/v1/public/` }).jobs.list({
      status: 'CREATED',
      customerId: undefined,
      limit: 5,
    })
    await client({ headers: { 'x-integration': 'erp' } }).jobs.get('a b/c')
    expect(seen.map((s) => s.url)).toEqual([
      '/v1/public/jobs?status=CREATED&limit=5',
      '/v1/public/jobs/a%20b%2Fc',
    ])
    expect(seen[1]?.headers).toMatchObject({ authorization: 'Bearer svc_live_test', 'x-integration': 'erp' })
    expect(seen[1]?.headers['content-type']).toBeUndefined()
    await client().jobs.update('j1', { title: 'New' }, { headers: { 'If-Match': '"v1"' } })
    expect(seen[2]).toMatchObject({ method: 'PATCH', body: '{"title":"New"}' })
    expect(seen[2]?.headers).toMatchObject({ 'if-match': '"v1"', 'content-type': 'application/json' })
  })

  it('retries a GET after a 503 or 502, waiting Retry-After when there is one', async () => {
    script = [failure(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '1' }), failure(502, 'BAD_GATEWAY'), ok()]
    const started = performance.now()
    const answer = await client().jobs.get('j1')
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000)
    expect(answer).toEqual({ job: JOB })
    expect(responseOf(answer)?.attempts).toBe(3)
    expect(seen).toHaveLength(3)
  })

  it('retries a POST after a 503 only when it carries an Idempotency-Key, with the same key', async () => {
    script = [failure(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '0' }), ok()]
    await client().jobs.create({ title: 'Keyed' })
    expect(seen).toHaveLength(2)
    expect(seen[1]?.headers['idempotency-key']).toBe(seen[0]?.headers['idempotency-key'])

    seen = []
    script = [failure(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '0' }), ok()]
    const error = await caught(client({ idempotencyKeys: false }).jobs.create({ title: 'Unkeyed' }))
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 0 })
    expect(seen).toHaveLength(1)
    expect(seen[0]?.headers['idempotency-key']).toBeUndefined()
  })

  it('retries 409 IDEMPOTENCY_KEY_IN_USE, and never a 500, 400 or 404', async () => {
    script = [failure(409, 'IDEMPOTENCY_KEY_IN_USE'), ok()]
    await client().jobs.create({ title: 'Twice' })
    expect(seen).toHaveLength(2)
    for (const [status, code] of [
      [500, 'INTERNAL_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [404, 'NOT_FOUND'],
    ] as const) {
      seen = []
      script = [failure(status, code), ok()]
      expect(await caught(client().jobs.get('j1'))).toMatchObject({ status, code })
      expect(seen).toHaveLength(1)
    }
  })

  it('gives up after maxAttempts, and at once when Retry-After asks more than maxRetryDelayMs', async () => {
    script = [failure(429, 'RATE_LIMITED', { 'retry-after': '0' })]
    script.push(...script, ...script)
    expect(await caught(client({ maxAttempts: 3 }).jobs.list())).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
    })
    expect(seen).toHaveLength(3)

    seen = []
    script = [failure(429, 'RATE_LIMITED', { 'retry-after': '120' }), ok()]
    const started = performance.now()
    const error = await caught(client().jobs.list())
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 120 })
    expect(performance.now() - started).toBeLessThan(1000)
    expect(seen).toHaveLength(1)
  })

  it('times out an attempt, retries a GET, and throws a FieldserviceConnectionError in the end', async () => {
    script = ['hang', 'hang']
    const error = await caught(client({ timeoutMs: 150, maxAttempts: 2 }).jobs.get('j1'))
    expect(error).toBeInstanceOf(FieldserviceConnectionError)
    expect(error).toMatchObject({ timedOut: true, attempts: 2 })
    expect(seen).toHaveLength(2)
  })

  it('stops at once when the caller aborts, retries and waits included', async () => {
    script = ['hang']
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('sync cancelled')), 100)
    const error = await caught(client().jobs.get('j1', { signal: controller.signal }))
    expect(error).toEqual(new Error('sync cancelled'))
    expect(seen).toHaveLength(1)

    seen = []
    script = [failure(429, 'RATE_LIMITED', { 'retry-after': '30' }), ok()]
    const waiting = new AbortController()
    setTimeout(() => waiting.abort(new Error('no more waiting')), 100)
    const started = performance.now()
    expect(await caught(client().jobs.list({}, { signal: waiting.signal }))).toEqual(
      new Error('no more waiting'),
    )
    expect(performance.now() - started).toBeLessThan(5000)
    expect(seen).toHaveLength(1)
  })

  it('throws UNEXPECTED_RESPONSE for an answer that is not the API’s JSON, and NOT_MODIFIED for a 304', async () => {
    script = [{ status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>Bad gateway</h1>' }]
    const error = await caught(client({ maxAttempts: 1 }).jobs.get('j1'))
    expect(error).toBeInstanceOf(FieldserviceError)
    expect(error).toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE', body: '<h1>Bad gateway</h1>' })
    expect((error as Error).message).toContain('Bad gateway')

    script = [{ status: 200, body: '<html>' }]
    expect(await caught(client().jobs.get('j1'))).toMatchObject({ status: 200, code: 'UNEXPECTED_RESPONSE' })

    script = [{ status: 304, headers: { etag: '"v1"' } }]
    const notModified = await caught(client().jobs.get('j1', { headers: { 'If-None-Match': '"v1"' } }))
    expect(notModified).toMatchObject({ status: 304, code: 'NOT_MODIFIED' })
    expect((notModified as FieldserviceError).headers.get('etag')).toBe('"v1"')
  })

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-23T09:00:00Z')
    expect(retryAfterSeconds('7', now)).toBe(7)
    expect(retryAfterSeconds('Mon, 23 Nov 2026 09:00:30 GMT', now)).toBe(30)
    expect(retryAfterSeconds('Mon, 23 Nov 2026 08:00:00 GMT', now)).toBe(0)
    expect(retryAfterSeconds('soon', now)).toBeUndefined()
    expect(retryAfterSeconds(null, now)).toBeUndefined()
  })
})
