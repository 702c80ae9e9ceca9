// Tables of a run, as plain text for the console and as Markdown for docs/benchmarks.md.
import type { Measurement } from './load.js'
import {
  type BenchResults,
  type Check,
  cpuRatio,
  dialectName,
  evaluate,
  figure,
  fixed,
  type ScenarioResult,
  saturated,
  sizeName,
  verdict,
} from './results.js'

export type TableFormat = 'text' | 'markdown'

export function renderTable(headers: string[], rows: string[][], numeric: boolean[], format: TableFormat) {
  if (format === 'markdown') {
    const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`
    const rule = numeric.map((n) => (n ? '---:' : '---'))
    return [line(headers), line(rule), ...rows.map(line)].join('\n')
  }
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd()
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

const rate = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-GB') : '–')
const ms = (value: number | null) => fixed(figure(value), 2)
/** CPU µs per request, with the share of its core the server used; `*` marks an unsaturated server. */
const cpu = (m: Measurement | undefined) =>
  m
    ? `${fixed(figure(m.cpuUsPerRequest), 0)} (${fixed(figure(m.cpuShare) * 100, 0)} %${saturated(m) ? '' : '*'})`
    : ''

function rowChecks(checks: Check[], r: ScenarioResult, kinds: Check['kind'][]): string {
  const found = checks.filter(
    (c) =>
      kinds.includes(c.kind) && c.scenario === r.scenario && c.dialect === r.dialect && c.size === r.size,
  )
  return found
    .map((c) => {
      const what = c.kind === 'raw-cpu-ratio' ? 'ratio' : c.kind === 'p99' ? 'p99' : 'p50'
      return `${what} ${c.target} ${verdict(c)}`
    })
    .join(', ')
}

export function resultsTable(run: BenchResults, format: TableFormat): string {
  const checks = evaluate(run)
  const rows: string[][] = []
  for (const r of run.results) {
    const errors = r.service.non2xx + r.service.errors
    const status = r.capturedStatus >= 300 ? ` (${r.capturedStatus})` : ''
    rows.push([
      dialectName(r.dialect),
      sizeName(r.size),
      r.label,
      rate(r.service.requestsPerSecond),
      ms(r.service.p50Ms),
      ms(r.service.p99Ms),
      `${errors}${status}`,
      cpu(r.service),
      cpu(r.raw),
      r.raw ? fixed(cpuRatio(r.service, r.raw), 2) : '',
      cpu(r.baseline),
      fixed(cpuRatio(r.service, r.baseline), 2),
      rowChecks(checks, r, ['raw-cpu-ratio', 'p99', 'write-p50']),
    ])
  }
  return renderTable(
    [
      'Database',
      'Jobs',
      'Scenario',
      'req/s',
      'p50 ms',
      'p99 ms',
      'non-2xx',
      'CPU µs/req (core)',
      'raw route',
      'raw ÷ service',
      'bare HTTP',
      'bare ÷ service',
      'targets',
    ],
    rows,
    [false, true, false, true, true, true, true, true, true, true, true, true, false],
    format,
  )
}

/** PostgreSQL runs: what the database's own processes spent per request, beside the server's. */
export function postgresCpuTable(run: BenchResults, format: TableFormat): string {
  const rows = run.results
    .filter((r) => r.dialect === 'postgres' && r.raw && r.service.dbCpuUsPerRequest !== undefined)
    .map((r) => [
      sizeName(r.size),
      r.label,
      fixed(figure(r.service.cpuUsPerRequest), 0),
      fixed(figure(r.service.dbCpuUsPerRequest), 0),
      fixed(figure(r.raw?.cpuUsPerRequest), 0),
      fixed(figure(r.raw?.dbCpuUsPerRequest), 0),
    ])
  if (rows.length === 0) return '(no PostgreSQL run with raw routes)'
  return renderTable(
    ['Jobs', 'Scenario', 'service µs', 'its PostgreSQL µs', 'raw route µs', 'its PostgreSQL µs'],
    rows,
    [true, false, true, true, true, true],
    format,
  )
}

/** The alternated rounds behind each ratio judged at the target size: how far one run's figure moves. */
export function roundsTable(run: BenchResults, format: TableFormat): string {
  const rows = run.results
    .filter((r) => r.rounds && r.raw)
    .map((r) => {
      const rounds = r.rounds as { service: number[]; raw: number[] }
      const spread = (values: number[]) => values.map((v) => fixed(v, 0)).join(', ')
      const ratios = rounds.service.map((service, i) => fixed((rounds.raw[i] as number) / service, 2))
      return [
        dialectName(r.dialect),
        sizeName(r.size),
        r.label,
        spread(rounds.service),
        spread(rounds.raw),
        ratios.join(', '),
        fixed(cpuRatio(r.service, r.raw as Measurement), 2),
      ]
    })
  if (rows.length === 0) return '(no alternated rounds in this run)'
  return renderTable(
    [
      'Database',
      'Jobs',
      'Scenario',
      'service µs, by round',
      'raw route µs, by round',
      'ratio by round',
      'ratio of medians',
    ],
    rows,
    [false, true, false, false, false, false, true],
    format,
  )
}

export function flatCostTable(run: BenchResults, format: TableFormat): string {
  const checks = evaluate(run).filter((c) => c.kind === 'flat-cost')
  if (checks.length === 0) return '(needs at least two sizes of the same database)'
  const rows = checks.map((c) => {
    const at = (size: number | undefined) =>
      run.results.find((r) => r.dialect === c.dialect && r.scenario === c.scenario && r.size === size)
    const kb = (size: number | undefined) => ((at(size)?.capturedBytes ?? Number.NaN) / 1024).toFixed(1)
    return [
      dialectName(c.dialect),
      run.results.find((r) => r.scenario === c.scenario)?.label ?? '',
      `${ms(at(c.size)?.service.p50Ms ?? null)} / ${ms(at(c.baseSize)?.service.p50Ms ?? null)}`,
      `${kb(c.size)} / ${kb(c.baseSize)}`,
      `${sizeName(c.size)} ÷ ${sizeName(c.baseSize ?? 0)}`,
      fixed(c.value, 2),
      c.target,
      verdict(c),
    ]
  })
  return renderTable(
    ['Database', 'Endpoint', 'p50 ms', 'response KB', 'sizes', 'ratio', 'target', 'verdict'],
    rows,
    [false, false, true, true, false, true, false, false],
    format,
  )
}

export function rssTable(run: BenchResults, format: TableFormat): string {
  const checks = evaluate(run).filter((c) => c.kind === 'rss')
  const rows = run.datasets.map((d) => {
    const check = checks.find((c) => c.dialect === d.dialect && c.size === d.size)
    return [
      dialectName(d.dialect),
      sizeName(d.size),
      d.liveJobs.toLocaleString('en-GB'),
      fixed(d.maxRssMb, 1),
      check?.target ?? '',
      check ? verdict(check) : '',
    ]
  })
  return renderTable(
    ['Database', 'Jobs', 'live jobs of the organisation', 'service max RSS MB', 'target', 'verdict'],
    rows,
    [false, true, true, true, false, false],
    format,
  )
}

/** One line per target judged where the issue sets it; failures first. */
export function verdictLines(run: BenchResults): string[] {
  const judged = evaluate(run).filter((c) => !c.indicative)
  const order = (c: Check) => (!Number.isFinite(c.value) ? 1 : c.pass ? 2 : 0)
  return judged
    .sort((a, b) => order(a) - order(b))
    .map(
      (c) =>
        `${verdict(c)}  ${c.name}: ${fixed(c.value, 2)} (target ${c.target})${c.note ? ` — ${c.note}` : ''}`,
    )
}

/** Scenarios whose captured response was wrong (an error status, or a total that disagrees with SQL). */
export function problemLines(run: BenchResults): string[] {
  return run.results
    .filter((r) => r.problem)
    .map((r) => `${dialectName(r.dialect)} ${sizeName(r.size)} ${r.label}: ${r.problem}`)
}

export function printReport(run: BenchResults): void {
  const out = (text = '') => process.stdout.write(`${text}\n`)
  out()
  out(resultsTable(run, 'text'))
  out()
  out('Flat cost with size (p50 of each list endpoint, largest ÷ smallest size run):')
  out(flatCostTable(run, 'text'))
  out()
  out(rssTable(run, 'text'))
  out()
  if (run.results.some((r) => r.rounds)) {
    out('Alternated rounds (CPU µs per request; the ratio targets are judged on the medians):')
    out(roundsTable(run, 'text'))
    out()
  }
  if (run.options.dialects.includes('postgres')) {
    out('PostgreSQL processes, CPU µs per request:')
    out(postgresCpuTable(run, 'text'))
    out()
  }
  const lines = verdictLines(run)
  out(lines.length > 0 ? 'Targets:' : 'No target judged (issue 18 sets them at 100k, and 1M vs 10k jobs).')
  for (const line of lines) out(`  ${line}`)
  const problems = problemLines(run)
  if (problems.length > 0) out('\nWrong answers (measured all the same):')
  for (const line of problems) out(`  ${line}`)
}
