// Graceful shutdown of a real service process under steady keep-alive load: SIGTERM turns /readyz
// to 503 at once, requests keep being served (each answer then closes its connection) while the
// load balancer notices, and the process exits 0 only after its webhook deliveries have finished.
import { once } from 'node:events'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../src/db/database.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'
import { kill, startService } from './processes.js'

const SHUTDOWN_DELAY_MS = 5000
/** How long the simulated load balancer keeps sending after it first sees /readyz fail. */
const NOTICE_MS = 1000

interface Outcome {
  startedAt: number
  status?: number
  connection?: string
  error?: string
}

/** A webhook receiver that holds every request until released, to keep deliveries in flight. */
async function startHoldingReceiver() {
  const held: ServerResponse[] = []
  let released = false
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (released) res.writeHead(204).end()
      else held.push(res)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get held() {
      return held.length
    },
    release() {
      released = true
      for (const res of held.splice(0)) res.writeHead(204).end()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: graceful shutdown`, () => {
    let database: Awaited<ReturnType<typeof createTestDatabaseUrl>>
    let key: string

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      const handle = createDatabase(database.url)
      const org = await createOrganisation(handle.db, { name: 'Drain Plumbing', plan: 'PRO' })
      key = (
        await createApiKey(handle.db, {
          organisationId: org.id,
          name: 'load',
          scopes: ['admin'],
          rateLimitPerMinute: 1_000_000,
        })
      ).key
      await handle.destroy()
    })
    afterAll(async () => {
      await database?.cleanup()
    })

    it('on SIGTERM: /readyz 503 at once, every answered request 2xx, deliveries finish, exit 0', async () => {
      const receiver = await startHoldingReceiver()
      const service = await startService(database.url, {
        SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
        METRICS_PORT: '0',
        WEBHOOK_TIMEOUT_MS: '60000',
      })
      const agent = new Agent({ keepAliveTimeout: 60_000, connections: 16 })
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
      try {
        const automation = await request(`${service.url}/v1/admin/automations`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ event: 'JOB_CREATED', url: receiver.url }),
          dispatcher: agent,
        })
        expect(automation.statusCode).toBe(201)
        await automation.body.dump()

        const ready = await request(`${service.url}/readyz`, { dispatcher: agent })
        expect(ready.statusCode).toBe(200)
        expect(await ready.body.json()).toMatchObject({ status: 'ready' })

        // Steady load: six keep-alive loops reading and writing, until the "load balancer" stops.
        const outcomes: Outcome[] = []
        let sendUntil = Number.POSITIVE_INFINITY
        let jobNumber = 0
        const loop = async (loopIndex: number) => {
          while (Date.now() < sendUntil) {
            const write = loopIndex % 2 === 0
            const outcome: Outcome = { startedAt: Date.now() }
            try {
              const response = await request(
                write ? `${service.url}/v1/public/jobs` : `${service.url}/v1/public/jobs?limit=5`,
                {
                  method: write ? 'POST' : 'GET',
                  headers,
                  dispatcher: agent,
                  ...(write ? { body: JSON.stringify({ title: `Job ${++jobNumber}` }) } : {}),
                },
              )
              await response.body.dump()
              outcome.status = response.statusCode
              outcome.connection = String(response.headers.connection ?? '')
            } catch (error) {
              outcome.error = `${(error as Error).message} ${(error as { code?: string }).code ?? ''}`
            }
            outcomes.push(outcome)
          }
        }
        const load = Promise.all([0, 1, 2, 3, 4, 5].map(loop))

        // Let the load run, and deliveries pile up at the receiver.
        await new Promise((resolve) => setTimeout(resolve, 1500))
        const exited = once(service.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
        const sigtermAt = Date.now()
        service.child.kill('SIGTERM')

        // The load balancer's health check: fresh connections, so it sees the instance as a new client would.
        const readyzSeen: number[] = []
        let notReadyAt: number | undefined
        while (notReadyAt === undefined && Date.now() - sigtermAt < SHUTDOWN_DELAY_MS - 1500) {
          const probe = await request(`${service.url}/readyz`, { headers: { connection: 'close' } })
          const body = (await probe.body.json()) as { status: string }
          readyzSeen.push(probe.statusCode)
          if (probe.statusCode === 503) {
            expect(body.status).toBe('not_ready')
            notReadyAt = Date.now()
          } else await new Promise((resolve) => setTimeout(resolve, 20))
        }
        expect(notReadyAt, `readyz answers seen: ${readyzSeen.join(', ')}`).toBeDefined()
        // It stops sending a little later, still well inside the drain delay.
        sendUntil = Math.min((notReadyAt as number) + NOTICE_MS, sigtermAt + SHUTDOWN_DELAY_MS - 1500)
        await load

        // Close has started (the port is closed) while deliveries are still held: the process must
        // wait for them. Release them only once the port refuses connections.
        const heldAtClose = receiver.held
        await waitForPortClosed(service.url, sigtermAt + SHUTDOWN_DELAY_MS + 20_000)
        expect(service.child.exitCode).toBeNull()
        receiver.release()
        const [code, signal] = await withTimeout(exited, 30_000, 'the service to exit')
        expect({ code, signal }).toEqual({ code: 0, signal: null })

        const answered = outcomes.filter((o) => o.status !== undefined)
        const failed = outcomes.filter((o) => o.error !== undefined)
        expect(failed, 'requests without an answer').toEqual([])
        expect(answered.filter((o) => (o.status as number) >= 300)).toEqual([])
        const duringDrain = answered.filter((o) => o.startedAt > sigtermAt)
        expect(duringDrain.length).toBeGreaterThan(0)
        // Once the instance is draining, every answer closes its connection, so clients reconnect.
        const afterNotReady = answered.filter((o) => o.startedAt > (notReadyAt as number))
        expect(afterNotReady.every((o) => o.connection === 'close')).toBe(true)
        expect(
          answered.filter((o) => o.startedAt < sigtermAt).some((o) => o.connection === 'keep-alive'),
        ).toBe(true)

        // Every delivery that had started finished and was recorded before the process exited.
        expect(heldAtClose).toBeGreaterThan(0)
        const handle = createDatabase(database.url)
        try {
          const executions = await handle.db.selectFrom('webhook_executions').select('status').execute()
          expect(executions.length).toBeGreaterThanOrEqual(heldAtClose)
          expect(executions.filter((e) => e.status !== 'SUCCESS')).toEqual([])
        } finally {
          await handle.destroy()
        }
      } finally {
        receiver.release()
        await kill(service.child)
        await agent.close()
        await receiver.close()
      }
    }, 90_000)
  })
}

async function waitForPortClosed(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      const response = await request(`${url}/healthz`, { headers: { connection: 'close' } })
      await response.body.dump()
    } catch {
      return
    }
    if (Date.now() > deadline) throw new Error('the service kept listening')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}
