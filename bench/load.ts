// The load generator: run.ts starts it pinned to the other core, writes a LoadConfig to its stdin,
// and reads one Measurement as JSON from its stdout. autocannon drives the server for the warm-up,
// then for the measured duration; latencies are kept at full resolution (autocannon's own
// histogram rounds to whole milliseconds, too coarse for sub-10 ms percentiles).
import { readdirSync, readFileSync } from 'node:fs'
import autocannon, { type Request } from 'autocannon'
import { concreteRequest } from './bodies.js'
import { cpuSecondsOf } from './proc-stat.js'
import type { RequestSpec } from './scenarios.js'

export interface LoadConfig {
  url: string
  connections: number
  warmup: number
  duration: number
  headers: Record<string, string>
  request: RequestSpec
  /** Makes the titles of written jobs unique across runs. */
  tag: string
  /** The server process, whose CPU time over the measured window is read from /proc. */
  serverPid: number
  /** Also read the CPU time of the machine's PostgreSQL processes (its backends do the SQL). */
  postgres: boolean
}

export interface Measurement {
  requestsPerSecond: number
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
  responses: number
  non2xx: number
  statusCodes: Record<string, number>
  /** Connection errors and timeouts, warm-up included. */
  errors: number
  seconds: number
  /** CPU time (user + system) the server process used during the measured window, in seconds. */
  cpuSeconds: number
  /** cpuSeconds ÷ responses: what one request cost the server, in microseconds. */
  cpuUsPerRequest: number
  /** cpuSeconds ÷ seconds: the share of its core the server used (≥ 0.9: saturated). */
  cpuShare: number
  /** PostgreSQL runs only: CPU time of the postgres processes per response, in microseconds. */
  dbCpuUsPerRequest?: number
}

/** CPU seconds of every postgres process, by pid (a backend that ends in between is not counted). */
function postgresCpu(): Map<number, number> {
  const seconds = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue
    } catch {
      continue
    }
    const used = cpuSecondsOf(Number(entry))
    if (Number.isFinite(used)) seconds.set(Number(entry), used)
  }
  return seconds
}

function postgresCpuSince(before: Map<number, number>): number {
  let total = 0
  for (const [pid, used] of postgresCpu()) total += used - (before.get(pid) ?? used)
  return total
}

let sent = 0

function requestsOf(config: LoadConfig): Request[] {
  const { request, tag } = config
  if (!request.dynamic) return [{ method: request.method, path: request.path }]
  return [
    {
      method: request.method,
      path: request.path,
      setupRequest: (base) => {
        const next = concreteRequest(request, sent++, tag)
        return { ...base, method: next.method, path: next.path, body: next.body }
      },
    },
  ]
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits

/**
 * One continuous autocannon run of warm-up + duration seconds; only responses that arrive after the
 * warm-up count. (Two separate runs would let the warm-up's abandoned in-flight requests, still
 * queued in a slow server, eat into the measured seconds.)
 */
async function drive(config: LoadConfig): Promise<Measurement> {
  const latencies: number[] = []
  const statusCodes: Record<string, number> = {}
  // The measured window opens when the server's CPU time is first read: responses and CPU time are
  // counted from the same instant.
  let measureFrom = Number.POSITIVE_INFINITY
  let cpuAtStart = Number.NaN
  let dbAtStart = new Map<number, number>()
  const startCpu = setTimeout(() => {
    if (config.postgres) dbAtStart = postgresCpu()
    cpuAtStart = cpuSecondsOf(config.serverPid)
    measureFrom = performance.now()
  }, config.warmup * 1000)
  const instance = autocannon({
    url: config.url,
    connections: config.connections,
    duration: config.warmup + config.duration,
    timeout: 10,
    headers: config.headers,
    requests: requestsOf(config),
  })
  instance.on('response', (_client, status, _bytes, ms) => {
    if (performance.now() < measureFrom) return
    latencies.push(ms)
    statusCodes[status] = (statusCodes[status] ?? 0) + 1
  })
  const result = await instance
  const cpuSeconds = cpuSecondsOf(config.serverPid) - cpuAtStart
  const dbCpuSeconds = config.postgres ? postgresCpuSince(dbAtStart) : Number.NaN
  clearTimeout(startCpu)
  const seconds = (performance.now() - measureFrom) / 1000
  const sorted = Float64Array.from(latencies).sort()
  const responses = latencies.length
  const non2xx = Object.entries(statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0)
  return {
    requestsPerSecond: round(responses / seconds, 1),
    p50Ms: round(percentile(sorted, 0.5), 3),
    p90Ms: round(percentile(sorted, 0.9), 3),
    p99Ms: round(percentile(sorted, 0.99), 3),
    maxMs: round(responses > 0 ? (sorted[responses - 1] as number) : Number.NaN, 3),
    responses,
    non2xx,
    statusCodes,
    errors: result.errors,
    seconds: round(seconds, 2),
    cpuSeconds: round(cpuSeconds, 3),
    cpuUsPerRequest: round(responses > 0 ? (cpuSeconds * 1e6) / responses : Number.NaN, 1),
    cpuShare: round(cpuSeconds / seconds, 3),
    ...(config.postgres && responses > 0
      ? { dbCpuUsPerRequest: round((dbCpuSeconds * 1e6) / responses, 1) }
      : {}),
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

const config = JSON.parse(await readStdin()) as LoadConfig
process.stdout.write(`${JSON.stringify(await drive(config))}\n`)
