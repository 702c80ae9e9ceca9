// A real HTTP webhook receiver on loopback for tests: records every request and answers as told
// (a status and body, a hang that never answers, or a dropped connection).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedWebhook {
  path: string
  headers: IncomingHttpHeaders
  body: string
  // biome-ignore lint/suspicious/noExplicitAny: payloads are asserted field by field
  json: any
}

export type Behaviour =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hang: true }
  | { drop: true }

export interface Receiver {
  url: string
  received: ReceivedWebhook[]
  respond(behaviour: Behaviour): void
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>
  close(): Promise<void>
}

export async function startReceiver(initial: Behaviour = { status: 200, body: 'ok' }): Promise<Receiver> {
  let behaviour = initial
  const received: ReceivedWebhook[] = []
  const hanging = new Set<ServerResponse>()
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
      received.push({ path: request.url ?? '/', headers: request.headers, body, json })
      if ('hang' in behaviour) {
        hanging.add(response)
        return
      }
      if ('drop' in behaviour) {
        request.socket.destroy()
        return
      }
      response.writeHead(behaviour.status, { 'content-type': 'text/plain', ...behaviour.headers })
      response.end(behaviour.body ?? '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    respond(next) {
      behaviour = next
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} webhooks within ${timeoutMs} ms, got ${received.length}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return received
    },
    async close() {
      for (const response of hanging) response.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
