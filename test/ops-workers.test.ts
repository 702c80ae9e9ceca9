// `fieldservice serve --workers N`: several worker processes on PostgreSQL, refused on SQLite.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'
import { freePort, kill, waitUntil } from './processes.js'

const ROOT = new URL('../', import.meta.url)

function cli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

async function output(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, stderr }
}

/** The pids of `fieldservice_worker_info` series on the cluster's metrics endpoint. */
async function workerPids(metricsUrl: string): Promise<number[]> {
  const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) })).text()
  return [...text.matchAll(/^fieldservice_worker_info\{[^}]*pid="(\d+)"[^}]*\} 1$/gm)].map((m) =>
    Number(m[1]),
  )
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: serve --workers`, () => {
    let database: Awaited<ReturnType<typeof createTestDatabaseUrl>>
    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
    })
    afterAll(async () => {
      await database?.cleanup()
    })

    it('serve --help says that workers need PostgreSQL', async () => {
      const { code, stdout } = await output(cli(['serve', '--help'], { DATABASE_URL: database.url }))
      expect(code).toBe(0)
      expect(stdout).toContain('--workers')
      expect(stdout.replace(/\s+/g, ' ')).toMatch(/PostgreSQL only: SQLite runs as one writer process/)
    })

    if (dialect === 'sqlite') {
      it('refuses --workers 2 on SQLite, clearly and without starting', async () => {
        const port = await freePort()
        const { code, stderr } = await output(
          cli(['serve', '--workers', '2', '--port', String(port)], {
            DATABASE_URL: database.url,
            METRICS_PORT: '0',
          }),
        )
        expect(code).not.toBe(0)
        expect(stderr).toMatch(/--workers above 1 needs PostgreSQL: SQLite runs as one writer process/)
        await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow()
      })
      return
    }

    it('runs two workers, replaces one killed with SIGKILL, and stops gracefully on SIGTERM', async () => {
      const port = await freePort()
      const metricsPort = await freePort()
      const url = `http://127.0.0.1:${port}`
      const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
      const primary = cli(['serve', '--workers', '2', '--port', String(port)], {
        DATABASE_URL: database.url,
        METRICS_PORT: String(metricsPort),
        SHUTDOWN_DELAY_MS: '200',
      })
      const exited = output(primary)
      let stderr = ''
      primary.stderr?.on('data', (chunk) => {
        stderr += chunk
      })
      try {
        const pids = await waitUntil(
          'two workers to report',
          async () => {
            const found = await workerPids(metricsUrl)
            return found.length === 2 ? found : undefined
          },
          60_000,
        )
        expect(new Set(pids).size).toBe(2)
        expect(pids).not.toContain(primary.pid)
        expect((await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) })).status).toBe(200)
        const metrics = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) })).text()
        expect(metrics).toMatch(/^fieldservice_cluster_workers 2$/m)
        // Requests from both workers are summed into one series.
        expect(metrics).toMatch(
          /^fieldservice_http_requests_total\{method="GET",route="\/readyz",status_code="200"\} \d+$/m,
        )

        const [victim, survivor] = pids as [number, number]
        process.kill(victim, 'SIGKILL')
        // The service keeps answering throughout (the other worker takes the connections; a
        // connection handed to the worker as it died may hang, hence the per-request time limit)...
        for (let i = 0; i < 20; i++) {
          const response = await waitUntil('an answer', async () => {
            const r = await fetch(`${url}/healthz`, {
              headers: { connection: 'close' },
              signal: AbortSignal.timeout(5000),
            })
            return r.status
          })
          expect(response).toBe(200)
        }
        // ...and the primary forks a replacement.
        const replaced = await waitUntil(
          'the killed worker to be replaced',
          async () => {
            const found = await workerPids(metricsUrl)
            return found.length === 2 && !found.includes(victim) ? found : undefined
          },
          60_000,
        )
        expect(replaced).toContain(survivor)
        expect(await (await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) })).text()).toMatch(
          /^fieldservice_cluster_worker_restarts_total 1$/m,
        )

        primary.kill('SIGTERM')
        const { code } = await Promise.race([
          exited,
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('primary did not exit')), 30_000),
          ),
        ])
        expect(code).toBe(0)
        for (const pid of replaced) expect(alive(pid)).toBe(false)
        await expect(fetch(`${url}/healthz`)).rejects.toThrow()
      } catch (error) {
        throw new Error(`${(error as Error).message}\nservice stderr:\n${stderr.slice(-3000)}`)
      } finally {
        await kill(primary)
      }
    }, 150_000)
  })
}
