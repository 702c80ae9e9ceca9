// Issue 13, point 2: a listening server cuts clients that send their headers or body too slowly,
// closes idle connections, and holds at most HTTP_MAX_CONNECTIONS at once. Raw sockets, small
// limits from the environment, so every case ends in well under a second of waiting.
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { createDatabase } from '../src/db/database.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { type RunningServer, startServer } from '../src/server.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'

const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '300',
  HTTP_REQUEST_TIMEOUT_MS: '600',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
  HTTP_IDLE_TIMEOUT_MS: '1500',
  HTTP_MAX_CONNECTIONS: '3',
}
/** A client that trickles a byte every TRICKLE_MS gives up after this many: far past every limit. */
const TRICKLE_MS = 50
const TRICKLE_BYTES = 100

interface Connection {
  socket: Socket
  /** Everything the server sent. */
  received(): string
  /** Resolves when the server has closed the connection (or it failed). */
  closed: Promise<void>
  isClosed(): boolean
}

async function open(port: number): Promise<Connection> {
  const socket = connect(port, '127.0.0.1')
  let data = ''
  let closed = false
  socket.on('data', (chunk) => {
    data += chunk.toString('latin1')
  })
  socket.on('error', () => {})
  const closedPromise = once(socket, 'close').then(() => {
    closed = true
  })
  await once(socket, 'connect')
  return { socket, received: () => data, closed: closedPromise, isClosed: () => closed }
}

/** Writes `text` a byte at a time until the server closes the connection; true if it did. */
async function trickle(connection: Connection, text: string): Promise<boolean> {
  for (const byte of text.slice(0, TRICKLE_BYTES)) {
    if (connection.isClosed()) return true
    connection.socket.write(byte)
    await new Promise((resolve) => setTimeout(resolve, TRICKLE_MS))
  }
  return connection.isClosed()
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: timeouts and the connection cap of a listening server`, () => {
    let database: { url: string; cleanup(): Promise<void> }
    let server: RunningServer
    let port: number
    let key: string

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      const handle = createDatabase(database.url)
      const org = await createOrganisation(handle.db, { name: 'Slow clients', plan: 'PRO' })
      key = (
        await createApiKey(handle.db, {
          organisationId: org.id,
          name: 'test',
          scopes: ['read', 'write'],
          rateLimitPerMinute: 1000,
          expiresAt: null,
        })
      ).key
      await handle.destroy()
      const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent', METRICS_PORT: '0', ...LIMITS }
      server = await startServer({ ...loadConfig(env), port: 0 })
      port = Number(new URL(server.url).port)
    })
    afterAll(async () => {
      await server?.close()
      await database?.cleanup()
    })

    it('cuts a client that sends its headers a byte at a time, with 408', async () => {
      const connection = await open(port)
      const headers = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(200)}\r\n\r\n`
      expect(await trickle(connection, headers)).toBe(true)
      expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /)
    })

    it('cuts a client that sends its body a byte at a time, with 408, and creates nothing', async () => {
      const connection = await open(port)
      const body = JSON.stringify({ title: `Slow ${'x'.repeat(300)}` })
      connection.socket.write(
        'POST /v1/public/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          `Authorization: Bearer ${key}\r\nContent-Length: ${body.length}\r\n\r\n`,
      )
      expect(await trickle(connection, body)).toBe(true)
      expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /)
      const jobs = await fetch(`${server.url}/v1/public/jobs`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(((await jobs.json()) as { data: { pagination: { total: number } } }).data.pagination.total).toBe(
        0,
      )
    })

    it('serves a request that arrives in time, then closes the connection once it is idle', async () => {
      const connection = await open(port)
      connection.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
      await connection.closed
      expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /)
      // Kept alive after the answer, and closed by the server once idle.
      expect(connection.received()).toMatch(/\r\nconnection: keep-alive\r\n/i)
    })

    it('cuts a connection on which nothing is ever sent (the headers timeout), with 408', async () => {
      const connection = await open(port)
      await connection.closed
      expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /)
    })

    it('cuts a client that stops reading its answers (the idle timeout)', async () => {
      const connection = await open(port)
      connection.socket.pause()
      // Far more than the socket buffers hold: the server's writes stall, then nothing moves.
      const request = 'GET /v1/public/docs/static/swagger-ui-bundle.js HTTP/1.1\r\nHost: x\r\n\r\n'
      const requests = 40
      connection.socket.write(request.repeat(requests))
      const asset = await fetch(`${server.url}/v1/public/docs/static/swagger-ui-bundle.js`)
      const total = requests * (await asset.arrayBuffer()).byteLength
      await new Promise((resolve) => setTimeout(resolve, Number(LIMITS.HTTP_IDLE_TIMEOUT_MS) * 2))
      connection.socket.resume()
      await connection.closed
      expect(connection.received().length).toBeLessThan(total)
    })

    it(`holds at most ${LIMITS.HTTP_MAX_CONNECTIONS} connections: one more is closed at once`, async () => {
      const held = await Promise.all([open(port), open(port), open(port)])
      const extra = await open(port)
      await extra.closed
      expect(extra.received()).toBe('')
      // The ones it holds are served.
      const first = held[0] as Connection
      first.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      await first.closed
      expect(first.received()).toMatch(/^HTTP\/1\.1 200 /)
      for (const connection of held) connection.socket.destroy()
      await Promise.all(held.map((connection) => connection.closed))
      const after = await fetch(`${server.url}/healthz`)
      expect(after.status).toBe(200)
    })
  })
}

describe('HTTP_* settings', () => {
  it('default to 10 s headers, 30 s request, 72 s keep-alive, 60 s idle, 1000 connections', () => {
    expect(loadConfig({})).toMatchObject({
      httpHeadersTimeoutMs: 10_000,
      httpRequestTimeoutMs: 30_000,
      httpKeepAliveTimeoutMs: 72_000,
      httpIdleTimeoutMs: 60_000,
      httpMaxConnections: 1000,
    })
  })

  it.each([
    [{ HTTP_HEADERS_TIMEOUT_MS: '0' }, /HTTP_HEADERS_TIMEOUT_MS must be at least 1/],
    [{ HTTP_REQUEST_TIMEOUT_MS: '1.5' }, /HTTP_REQUEST_TIMEOUT_MS must be a non-negative integer/],
    [{ HTTP_MAX_CONNECTIONS: '-1' }, /HTTP_MAX_CONNECTIONS must be a non-negative integer/],
    [{ HTTP_HEADERS_TIMEOUT_MS: '40000' }, /must not exceed HTTP_REQUEST_TIMEOUT_MS/],
    [{ HEAP_GROWTH_PERCENT: 'auto' }, /HEAP_GROWTH_PERCENT must be a non-negative integer/],
  ])('refuse %j at start', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })
})
