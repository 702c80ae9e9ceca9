// `npm run bench:routing`: every Solomon instance (optionally Gehring & Homberger 200 and 1000, and a
// 1,000-job × 50-route field-service day) solved one at a time in a child process pinned to one
// core, each plan checked by the independent checker, and a table per class written to
// docs/routing-benchmarks.md.
//
//   --time-limit SECONDS     per Solomon / GH 200 instance (default 5)
//   --gh-time-limit SECONDS  per GH 1000 instance (default 60)
//   --instances GLOB         instance names to run, e.g. 'R1*' or 'C101' (default all)
//   --gh                     include the GH 200 and GH 1000 sets
//   --scale                  include the 1,000 jobs × 50 routes day (time limit: --gh-time-limit)
//   --seed N                 (default 1)
//   --out FILE               (default docs/routing-benchmarks.md; '-' prints only)
//   --no-local-search        ruin and recreate alone (to compare with the default)
//   --stop-when-stalled      end each search once stalled, as the route-plans service does (the
//                            default gives every instance its whole limit)
//   --compare FILE           another solver's results on the same instances, side by side: JSON lines
//                            { instance, set (solomon | homberger_200 | homberger_1000), distance,
//                            vehicles, feasible, wallSeconds }, its plans re-checked in double
//                            precision by whoever ran it (the other solver never enters the repo)
//   --compare-name NAME      what to call it in the report (default "other")
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { ROOT_DIR } from '../paths.js'
import { type Other, type Row, renderReport } from './report.js'
import type { SolveResult } from './solve-one.js'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name)
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback
}
const timeLimit = Number(option('--time-limit', '5'))
const ghTimeLimit = Number(option('--gh-time-limit', '60'))
const seed = Number(option('--seed', '1'))
const pattern = option('--instances', '*')
const out = option('--out', join(ROOT_DIR, 'docs/routing-benchmarks.md'))
const withGh = args.includes('--gh')
const withScale = args.includes('--scale')
const compareFile = option('--compare', '')
const compareName = option('--compare-name', 'other')
const SET_OF_FOLDER: Record<string, string> = {
  solomon: 'solomon',
  homberger_200: 'gh200',
  homberger_1000: 'gh1000',
}
const other = new Map<string, Other>()
if (compareFile)
  for (const line of readFileSync(compareFile, 'utf8').split('\n')) {
    if (!line.trim()) continue
    const entry = JSON.parse(line) as Other & { instance: string; set: string }
    other.set(`${SET_OF_FOLDER[entry.set] ?? entry.set}:${entry.instance.toLowerCase()}`, entry)
  }
/** `--no-local-search`: ruin and recreate alone, to measure what the local search adds. */
const localSearch = args.includes('--no-local-search') ? 'off' : 'on'
const stopWhenStalled = args.includes('--stop-when-stalled') ? 'stall' : 'full'
const INSTANCES = join(ROOT_DIR, 'bench/routing/instances')
const bks = JSON.parse(readFileSync(join(INSTANCES, 'BKS.json'), 'utf8')) as Record<
  string,
  { best_known_cost: number; solved_with_vehicles: number }
>
const glob = new RegExp(
  `^${pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')}$`,
  'i',
)
const pinned = availableParallelism() >= 2 && spawnSync('taskset', ['-V']).status === 0

function runChild(kind: string, source: string, limit: number): SolveResult {
  const command = [process.execPath, '--import', 'tsx', join(ROOT_DIR, 'bench/routing/solve-one.ts')]
  const full = pinned ? ['taskset', '-c', '1', ...command] : command
  const child = spawnSync(
    full[0]!,
    [...full.slice(1), kind, source, String(limit), String(seed), localSearch, stopWhenStalled],
    {
      cwd: ROOT_DIR,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    },
  )
  if (child.status !== 0) throw new Error(`solve of ${source} failed: ${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as SolveResult
}

function classOf(name: string): string {
  return /^(rc|r|c)(\d)/i.exec(name)!.slice(1, 3).join('').toUpperCase()
}

const rows: Row[] = []
const sets: { set: string; folder: string; limit: number; bksKey: (name: string) => string }[] = [
  { set: 'solomon', folder: 'solomon', limit: timeLimit, bksKey: (name) => `${name}_distance` },
]
if (withGh) {
  sets.push({ set: 'gh200', folder: 'homberger_200', limit: timeLimit, bksKey: (name) => name })
  sets.push({ set: 'gh1000', folder: 'homberger_1000', limit: ghTimeLimit, bksKey: (name) => name })
}
const started = Date.now()
const load = loadavg().map((x) => Math.round(x * 100) / 100)
for (const { set, folder, limit, bksKey } of sets) {
  const files = readdirSync(join(INSTANCES, folder))
    .filter((file) => file.endsWith('.txt'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  for (const file of files) {
    const name = file.replace(/\.txt$/, '')
    if (!glob.test(name)) continue
    const result = runChild('solomon', join(INSTANCES, folder, file), limit)
    const best = bks[bksKey(name)]
    const row: Row = {
      set,
      name,
      group: classOf(name),
      limit,
      result,
      bks: best?.best_known_cost ?? null,
      other: other.get(`${set}:${name.toLowerCase()}`) ?? null,
    }
    rows.push(row)
    const gap = row.bks ? ((100 * (result.distance - row.bks)) / row.bks).toFixed(2) : '–'
    process.stdout.write(
      `${set} ${name}: ${result.distance.toFixed(2)} (${gap} %), ${result.vehicles} vehicles, ` +
        `${result.seconds.toFixed(2)} s (wall ${result.wallSeconds.toFixed(2)} s), ${result.unassigned} unassigned, ${result.violations.length} violations\n`,
    )
  }
}
if (withScale) {
  const result = runChild('generated', '1000x50', ghTimeLimit)
  rows.push({
    set: 'scale',
    name: '1000 jobs × 50 routes',
    group: 'scale',
    limit: ghTimeLimit,
    result,
    bks: null,
    other: null,
  })
  process.stdout.write(`scale: ${JSON.stringify(result)}\n`)
}
const report = renderReport(rows, {
  command: `npm run bench:routing -- ${args.join(' ')}`.trim(),
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
  memoryGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  pinned,
  loadAverage: load,
  seed,
  date: new Date(started).toISOString().slice(0, 10),
  minutes: (Date.now() - started) / 60000,
  compareName: compareFile ? compareName : null,
})
if (out === '-') process.stdout.write(report)
else {
  writeFileSync(out, report)
  process.stdout.write(`wrote ${out}\n`)
}
