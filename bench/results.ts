// The results of a run (written to bench/results/latest.json) and issue 18's targets checked
// against them. A target is judged where the issue sets it (100 k jobs; 1 M vs 10 k for flat cost);
// at other sizes the same check is shown as indicative only.
import type { Measurement } from './load.js'
import type { Machine } from './machine.js'
import type { BenchDialect, BenchOptions } from './options.js'
import {
  FLAT_COST_SIZES,
  FLAT_COST_TARGET,
  P99_TARGET_CONNECTIONS,
  PG_WRITE_P50_TARGET_MS,
  RAW_CPU_RATIO_TARGET,
  RSS_TARGET_MB,
  SATURATED_SHARE,
  SCENARIOS,
  SQLITE_LIST_P99_TARGET_MS,
  scenarioNamed,
  TARGET_SIZE,
} from './scenarios.js'

export interface ScenarioResult {
  dialect: BenchDialect
  size: number
  scenario: string
  label: string
  method: string
  /** What the service answered when its bytes were captured for the baseline. */
  capturedStatus: number
  capturedBytes: number
  /** The captured response was an error or its total disagreed with a direct SQL count. */
  problem?: string
  service: Measurement
  /** The bare node:http server answering with the captured bytes: HTTP's own cost. */
  baseline: Measurement
  /** The raw route of this database (bench/raw-routes.ts), for the scenarios that have one. */
  raw?: Measurement
  /**
   * With alternated rounds (the target size, `--rounds` > 1): each round's CPU µs per request, in the
   * order measured. `service` and `raw` above are then the rounds whose CPU per request is the median.
   */
  rounds?: { service: number[]; raw: number[] }
}

export interface DatasetRun {
  dialect: BenchDialect
  size: number
  /** Live jobs of the target organisation when the run started. */
  liveJobs: number
  /** Largest VmRSS of the service seen during the run. */
  maxRssMb: number
  buildSeconds: number
}

export interface BenchResults {
  startedAt: string
  finishedAt: string
  command: string
  options: BenchOptions
  machine: Machine
  results: ScenarioResult[]
  datasets: DatasetRun[]
}

export interface Check {
  kind: 'raw-cpu-ratio' | 'p99' | 'write-p50' | 'flat-cost' | 'rss'
  /** What is compared, e.g. "SQLite 100k GET /jobs/:id ÷ baseline". */
  name: string
  dialect: BenchDialect
  size: number
  /** flat-cost: the size `size` is compared with. */
  baseSize?: number
  scenario?: string
  value: number
  /** E.g. "≥ 0.50". */
  target: string
  pass: boolean
  /** Measured outside the conditions the issue sets the target for: a hint, not a verdict. */
  indicative: boolean
  /** A caveat printed beside the verdict, e.g. that the reference server was not saturated. */
  note?: string
}

/** A figure from JSON: NaN (no responses) was written as null. */
export const figure = (value: number | null | undefined) => (typeof value === 'number' ? value : Number.NaN)

/** reference CPU per request ÷ the server's: 1 is as cheap as the reference, 0.5 twice its cost. */
export const cpuRatio = (server: Measurement, reference: Measurement) =>
  figure(reference.cpuUsPerRequest) / figure(server.cpuUsPerRequest)

export const saturated = (m: Measurement) => figure(m.cpuShare) >= SATURATED_SHARE

export const sizeName = (size: number) =>
  size >= 1_000_000 && size % 100_000 === 0
    ? `${size / 1_000_000}M`
    : size >= 1_000 && size % 100 === 0
      ? `${size / 1_000}k`
      : String(size)
export const dialectName = (dialect: BenchDialect) => (dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL')

/**
 * What a latency target is up against: with every connection waiting for its answer before it sends
 * again (autocannon's closed loop), the mean latency is connections ÷ throughput (Little's law), so
 * at 50 connections a latency target is a throughput target in disguise. Shown with the raw route's
 * own figure, the yardstick under the same load.
 */
function latencyContext(r: ScenarioResult, which: 'p50Ms' | 'p99Ms', connections: number): string {
  const rate = figure(r.service.requestsPerSecond)
  const floor = `${connections} connections ÷ ${Math.round(rate).toLocaleString('en')} req/s = ${((1000 * connections) / rate).toFixed(1)} ms mean`
  const raw = r.raw
    ? `raw route ${which === 'p50Ms' ? 'p50' : 'p99'} ${figure(r.raw[which]).toFixed(1)} ms; `
    : ''
  return `${raw}${floor}`
}

export function evaluate(run: BenchResults): Check[] {
  const checks: Check[] = []
  const at = (dialect: BenchDialect, size: number) => `${dialectName(dialect)} ${sizeName(size)}`
  for (const r of run.results) {
    const scenario = scenarioNamed(r.scenario)
    const indicative = r.size !== TARGET_SIZE
    const base = { dialect: r.dialect, size: r.size, scenario: r.scenario, indicative }
    if (r.raw) {
      const value = cpuRatio(r.service, r.raw)
      const unsaturated = [
        ...(saturated(r.raw) ? [] : ['raw route']),
        ...(saturated(r.service) ? [] : ['service']),
      ]
      checks.push({
        ...base,
        kind: 'raw-cpu-ratio',
        name: `${at(r.dialect, r.size)} ${r.label}: raw route ÷ service CPU per request`,
        value,
        target: `≥ ${RAW_CPU_RATIO_TARGET.toFixed(2)}`,
        pass: value >= RAW_CPU_RATIO_TARGET,
        ...(unsaturated.length > 0 ? { note: `${unsaturated.join(' and ')} not saturated` } : {}),
      })
    }
    if (r.dialect === 'sqlite' && scenario.list && run.options.connections === P99_TARGET_CONNECTIONS) {
      checks.push({
        ...base,
        kind: 'p99',
        name: `${at(r.dialect, r.size)} ${r.label} p99 (ms)`,
        value: figure(r.service.p99Ms),
        target: `≤ ${SQLITE_LIST_P99_TARGET_MS}`,
        pass: figure(r.service.p99Ms) <= SQLITE_LIST_P99_TARGET_MS,
        note: latencyContext(r, 'p99Ms', run.options.connections),
      })
    }
    if (
      r.dialect === 'postgres' &&
      r.method !== 'GET' &&
      run.options.connections === P99_TARGET_CONNECTIONS
    ) {
      checks.push({
        ...base,
        kind: 'write-p50',
        name: `${at(r.dialect, r.size)} ${r.label} p50 (ms)`,
        value: figure(r.service.p50Ms),
        target: `≤ ${PG_WRITE_P50_TARGET_MS}`,
        pass: figure(r.service.p50Ms) <= PG_WRITE_P50_TARGET_MS,
        note: latencyContext(r, 'p50Ms', run.options.connections),
      })
    }
  }
  checks.push(...flatCostChecks(run))
  for (const d of run.datasets) {
    checks.push({
      kind: 'rss',
      name: `${at(d.dialect, d.size)} service RSS (MB)`,
      dialect: d.dialect,
      size: d.size,
      value: d.maxRssMb,
      target: `≤ ${RSS_TARGET_MB}`,
      pass: d.maxRssMb <= RSS_TARGET_MB,
      indicative: false,
    })
  }
  return checks
}

/** p50 at the largest size ÷ p50 at the smallest, per list endpoint and dialect. */
export function flatCostChecks(run: BenchResults): Check[] {
  const checks: Check[] = []
  const [small, large] = FLAT_COST_SIZES
  for (const dialect of run.options.dialects) {
    for (const scenario of SCENARIOS.filter((s) => s.list)) {
      const rows = run.results
        .filter((r) => r.dialect === dialect && r.scenario === scenario.name)
        .sort((a, b) => a.size - b.size)
      const first = rows[0]
      const last = rows[rows.length - 1]
      if (!first || !last || first === last) continue
      const value = figure(last.service.p50Ms) / figure(first.service.p50Ms)
      checks.push({
        kind: 'flat-cost',
        name: `${dialectName(dialect)} ${scenario.label} p50 ${sizeName(last.size)} ÷ ${sizeName(first.size)}`,
        dialect,
        size: last.size,
        baseSize: first.size,
        scenario: scenario.name,
        value,
        target: `≤ ${FLAT_COST_TARGET.toFixed(2)}`,
        pass: value <= FLAT_COST_TARGET,
        indicative: first.size !== small || last.size !== large,
      })
    }
  }
  return checks
}

export function verdict(check: Check): string {
  if (!Number.isFinite(check.value)) return 'n/a'
  if (check.indicative) return check.pass ? '(pass)' : '(fail)'
  return check.pass ? 'PASS' : 'FAIL'
}

export const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–')
