// One scenario against one server: capture the service's answer (and check it), hand the bytes to
// the baseline, and drive a server with the load generator pinned to the other core.
import { concreteRequest } from './bodies.js'
import type { LoadConfig, Measurement } from './load.js'
import type { BenchOptions } from './options.js'
import * as processes from './processes.js'
import type { Fixtures, RequestSpec } from './scenarios.js'

const TSX = [process.execPath, '--import', 'tsx']

export interface Captured {
  status: number
  contentType: string
  body: Buffer
}

export function headersFor(spec: RequestSpec, fixtures: Fixtures): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${fixtures.apiKey}` }
  if (spec.dynamic) headers['content-type'] = 'application/json'
  return headers
}

/** One request to the service: the bytes the baseline will serve for this scenario. */
export async function capture(
  url: string,
  spec: RequestSpec,
  fixtures: Fixtures,
  tag: string,
): Promise<Captured> {
  const request = concreteRequest(spec, 0, tag)
  const response = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: headersFor(spec, fixtures),
    body: request.body,
  })
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? 'application/json',
    body: Buffer.from(await response.arrayBuffer()),
  }
}

/** What is wrong with the captured response, if anything: a benchmark of wrong answers means little. */
export function checkCaptured(name: string, captured: Captured, fixtures: Fixtures): string | undefined {
  const text = captured.body.toString('utf8')
  if (captured.status >= 300) return `the service answered ${captured.status}: ${text.slice(0, 300)}`
  const expected = fixtures.expectedTotals[name]
  if (expected === undefined) return undefined
  let total: unknown
  try {
    total = JSON.parse(text)?.data?.pagination?.total
  } catch {
    return 'the response is not JSON'
  }
  return total === expected ? undefined : `pagination.total is ${total}, a direct SQL count says ${expected}`
}

export async function loadBaseline(url: string, captured: Captured): Promise<void> {
  const response = await fetch(`${url}/__bench/response`, {
    method: 'PUT',
    headers: { 'x-bench-status': String(captured.status), 'x-bench-content-type': captured.contentType },
    body: captured.body,
  })
  if (response.status !== 204) throw new Error(`the baseline refused the response (${response.status})`)
}

export async function driveLoad(
  url: string,
  request: RequestSpec,
  fixtures: Fixtures,
  options: BenchOptions,
  tag: string,
  server: { pid: number; postgres: boolean },
): Promise<Measurement> {
  const config: LoadConfig = {
    url,
    connections: options.connections,
    warmup: options.warmup,
    duration: options.duration,
    headers: headersFor(request, fixtures),
    request,
    tag,
    serverPid: server.pid,
    postgres: server.postgres,
  }
  const load = processes.startChild([...TSX, 'bench/load.ts'], { cpu: 1, stdin: true })
  let stdout = ''
  load.process.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8')
  })
  load.process.stdin?.end(JSON.stringify(config))
  const code = await load.exited
  const line = stdout.trim().split('\n').pop() ?? ''
  if (code !== 0 || !line.startsWith('{')) throw new Error(`the load generator failed:\n${load.output()}`)
  return JSON.parse(line) as Measurement
}
