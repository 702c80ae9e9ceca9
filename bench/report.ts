// Tables of a run, as plain text for the console and as Markdown for docs/benchmarks.md.
import type { Measurement } from './load.js'
import {
  type BenchResults,
  type Check,
  dialectName,
  evaluate,
  figure,
  fixed,
  ratio,
  type ScenarioResult,
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

function rowChecks(checks: Check[], r: ScenarioResult, kind: Check['kind']): string {
  const found = checks.filter(
    (c) => c.kind === kind && c.scenario === r.scenario && c.dialect === r.dialect && c.size === r.size,
  )
  return found.map((c) => `${c.target} ${verdict(c)}`).join(', ')
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
      rate(r.baseline.requestsPerSecond),
      fixed(ratio(r.service, r.baseline), 2),
      rowChecks(checks, r, 'baseline-ratio'),
      rowChecks(checks, r, 'p99'),
    ])
    const rawRow = (label: string, raw: Measurement, target: string) =>
      rows.push([
        dialectName(r.dialect),
        sizeName(r.size),
        label,
        rate(raw.requestsPerSecond),
        ms(raw.p50Ms),
        ms(raw.p99Ms),
        String(raw.non2xx + raw.errors),
        rate(r.baseline.requestsPerSecond),
        fixed(ratio(raw, r.baseline), 2),
        `service ÷ raw = ${fixed(ratio(r.service, raw), 2)} ${target}`.trimEnd(),
        '',
      ])
    if (r.pgRaw) rawRow('↳ raw prepared pg route', r.pgRaw, rowChecks(checks, r, 'pg-raw-ratio'))
    // Informational: what Fastify + SQLite can do on this machine; no target is set against it.
    if (r.sqliteRaw) rawRow('↳ raw prepared SQLite route', r.sqliteRaw, '')
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
      'baseline req/s',
      'ratio',
      'ratio target',
      'p99 target',
    ],
    rows,
    [false, true, false, true, true, true, true, true, true, false, false],
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
    .map((c) => `${verdict(c)}  ${c.name}: ${fixed(c.value, 2)} (target ${c.target})`)
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
  const lines = verdictLines(run)
  out(lines.length > 0 ? 'Targets:' : 'No target judged (issue 5 sets them at 100k and 1M vs 10k jobs).')
  for (const line of lines) out(`  ${line}`)
  const problems = problemLines(run)
  if (problems.length > 0) out('\nWrong answers (measured all the same):')
  for (const line of problems) out(`  ${line}`)
}
