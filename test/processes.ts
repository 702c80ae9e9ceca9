// The service in child processes, as `npm start` runs it, for tests of crashes, restarts and
// several instances: free ports, waiting for a condition, starting and killing a server.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'

const ROOT = new URL('../', import.meta.url)

export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

/** Thrown by a probe to end the wait at once (any other error counts as "not yet"). */
export class StopWaiting extends Error {}

const SERVICE_START_TIMEOUT_MS = 45_000
/** For tests that start service processes one after another: each may take its time to start. */
export const PROCESS_TEST_TIMEOUT_MS = 120_000

/** Polls `probe` every 50 ms until it returns something other than undefined (errors count as not yet). */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe().catch((error: unknown) => {
      if (error instanceof StopWaiting) throw error
      return undefined
    })
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export interface ServiceProcess {
  url: string
  port: number
  child: ChildProcess
}

/** `fieldservice` (src/main.ts through tsx) in a child process on the given database; resolves once it answers. */
export async function startService(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '100',
      // Several services run at once in the tests: no fixed metrics port, no shutdown delay.
      METRICS_PORT: '0',
      SHUTDOWN_DELAY_MS: '0',
      // Every test client is 127.0.0.1: the per-IP limit of keyless routes must not get in the way.
      IP_RATE_LIMIT_PER_MINUTE: '1000000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  // Generous: tsx compiles the service on start, and on a loaded two-core machine (the suite runs
  // files in parallel) two services starting at once took longer than 15 s. A child that exits
  // fails the wait at once instead.
  await waitUntil(
    'the service to listen',
    async () => {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new StopWaiting(`the service exited (${child.exitCode ?? child.signalCode}) before it listened`)
      return (await fetch(`${url}/v1/public/jobs`)).status === 401 ? true : undefined
    },
    SERVICE_START_TIMEOUT_MS,
  )
  return { url, port, child }
}

export async function kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill(signal)
  await once(child, 'exit')
}
