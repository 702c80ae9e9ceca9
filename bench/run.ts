// `npm run bench` — the service against yardsticks measured in the same run, on SQLite and PostgreSQL,
// at 10 k, 100 k and 1 M jobs: a bare node:http server serving the same bytes (HTTP's own cost) and,
// for GET /jobs/:id, GET /jobs, POST /jobs and PATCH /jobs/:id, hand-written raw routes of the same
// database (bench/raw-routes.ts). Every server's CPU time per request is the headline figure.
//
//   npm run bench                       everything (datasets are built on first use and cached)
//   npm run bench -- --quick            10k only, 1 s warm-up, 2 s measured: a smoke run
//   npm run bench -- --sizes 10k,1m --dialects sqlite --scenarios jobs-list,jobs-deep
//
// Flags:
//   --sizes 10k,100k,1m       dataset sizes: jobs in the target organisation (default: all three)
//   --dialects sqlite,postgres
//   --duration <s>            measured seconds per scenario and server (default 10)
//   --warmup <s>              warm-up seconds before each measurement (default 3)
//   --connections <n>         autocannon connections (default 50)
//   --rounds <n>              at 100k, service and raw route measured n times each, alternated;
//                             medians reported (default 3; 1 with --quick)
//   --scenarios a,b           job-get, jobs-list, jobs-filtered, jobs-deep, customers-search,
//                             vehicles, shifts, job-create, job-update (default), jobs-deep-offset
//   --quick                   --sizes 10k --warmup 1 --duration 2, unless given explicitly
//   --source                  run the service from src/ with tsx instead of building dist/
//   --prepare-only            build missing datasets, print their sizes, and stop
//   --rebuild                 rebuild the datasets even when the cached ones are complete
//   --no-docs                 do not rewrite docs/benchmarks.md (bench/results/ is always written)
// Env: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server
// and its maintenance database; datasets live in databases fs_bench_<size> on it.
//
// Each (database, size): a working copy of the cached dataset; the service (`node dist/main.js`),
// the baseline and the raw routes of its database (bench/pg-raw.ts or bench/sqlite-raw.ts) on core 0;
// autocannon on core 1 (taskset).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createWorkingCopy, type Dataset, ensureDataset, withPostgresAdmin } from './dataset.js'
import { datasetDiskUsage } from './disk.js'
import { capture, checkCaptured, driveLoad, loadBaseline } from './drive.js'
import { loadFixtures } from './fixtures.js'
import type { Measurement } from './load.js'
import { describeMachine } from './machine.js'
import { writeBenchmarksDoc } from './markdown.js'
import { type BenchOptions, HelpRequested, parseOptions, sizeLabel } from './options.js'
import { BENCH_DIR } from './paths.js'
import * as processes from './processes.js'
import { printReport } from './report.js'
import { type BenchResults, cpuRatio, type DatasetRun, type ScenarioResult } from './results.js'
import { scenarioNamed, TARGET_SIZE } from './scenarios.js'

const NODE = process.execPath
const TSX = [NODE, '--import', 'tsx']
const log = (line: string) => process.stderr.write(`${line}\n`)

const USAGE = `usage: npm run bench -- [--quick] [--sizes 10k,100k,1m] [--dialects sqlite,postgres]
  [--duration s] [--warmup s] [--connections n] [--scenarios a,b] [--source] [--prepare-only]
  [--rebuild] [--no-docs]   (flags: the top of bench/run.ts, or docs/benchmarks.md)`

async function main(): Promise<void> {
  processes.installExitHandlers()
  let options: BenchOptions
  try {
    options = parseOptions(process.argv.slice(2))
  } catch (error) {
    if (error instanceof HelpRequested) return void log(USAGE)
    log(`${(error as Error).message}\n${USAGE}`)
    process.exit(2)
  }
  if (options.dialects.includes('postgres')) await assertPostgresReachable()

  const datasets: Dataset[] = []
  for (const dialect of options.dialects) {
    for (const size of options.sizes) {
      datasets.push(await ensureDataset(dialect, size, { rebuild: options.rebuild, log }))
    }
  }
  if (options.prepareOnly) {
    for (const { marker } of datasets) {
      const disk = await datasetDiskUsage(marker.dialect, marker.size)
      log(
        `${marker.dialect} ${sizeLabel(marker.size)}: ${marker.jobs} jobs, built in ${marker.buildSeconds} s, ${disk}`,
      )
    }
    return
  }

  const serviceCommand = options.source ? [...TSX, 'src/main.ts'] : [NODE, 'dist/main.js']
  if (!options.source) {
    try {
      processes.buildService(log)
    } catch (error) {
      log(`${(error as Error).message}\nthe build failed: fix it, or measure src/ with --source`)
      process.exit(1)
    }
  }
  const run: BenchResults = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    options,
    machine: await describeMachine(options.dialects.includes('postgres')),
    results: [],
    datasets: [],
  }
  if (!run.machine.pinned) log('warning: taskset or a second core is missing; processes are not pinned')
  const perServer = options.warmup + options.duration
  const rawScenarios = options.scenarios.filter((name) => scenarioNamed(name).raw).length
  const atTarget = datasets.filter((d) => d.marker.size === TARGET_SIZE).length
  const measurements =
    datasets.length * (options.scenarios.length * 2 + rawScenarios) +
    atTarget * rawScenarios * 2 * (options.rounds - 1)
  const minutes = (measurements * perServer) / 60
  log(
    `measuring ${options.scenarios.length} scenarios × ${datasets.length} datasets (≈ ${Math.ceil(minutes)} min)`,
  )
  for (const dataset of datasets) {
    run.datasets.push(await runDataset(dataset, options, serviceCommand, run.results))
  }
  run.finishedAt = new Date().toISOString()

  const resultsDir = join(BENCH_DIR, 'results')
  mkdirSync(resultsDir, { recursive: true })
  const json = `${JSON.stringify(run, null, 2)}\n`
  writeFileSync(join(resultsDir, 'latest.json'), json)
  writeFileSync(join(resultsDir, `${run.startedAt.replace(/[:.]/g, '-')}.json`), json)
  printReport(run)
  log(`\nwrote bench/results/latest.json${options.noDocs ? '' : ` and ${writeBenchmarksDoc(run)}`}`)
}

async function assertPostgresReachable(): Promise<void> {
  try {
    await withPostgresAdmin((client) => client.query('SELECT 1'))
  } catch (error) {
    log(
      `PostgreSQL is unreachable (${(error as Error).message}).\n` +
        'Start it (127.0.0.1:5432, user postgres), set BENCH_POSTGRES_URL, or run with --dialects sqlite.',
    )
    process.exit(1)
  }
}

async function runDataset(
  dataset: Dataset,
  options: BenchOptions,
  serviceCommand: string[],
  results: ScenarioResult[],
): Promise<DatasetRun> {
  const { dialect, size } = dataset.marker
  log(`\n${dialect} ${sizeLabel(size)}: preparing a working copy…`)
  const copy = await createWorkingCopy(dataset)
  const forgetCopy = processes.onCleanup(copy.drop)
  const servers: processes.Child[] = []
  const stopServers = async () => {
    for (const server of servers.splice(0)) await processes.stopChild(server)
  }
  try {
    const fixtures = await loadFixtures(copy.url, dataset.marker)
    const port = await processes.freePort()
    const service = processes.startChild(serviceCommand, {
      cpu: 0,
      env: {
        DATABASE_URL: copy.url,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        WEBHOOK_DISPATCHER: 'true',
        // Stopped with SIGTERM between runs: no readiness drain to wait out, no metrics port to hold.
        SHUTDOWN_DELAY_MS: '0',
        METRICS_PORT: '0',
      },
    })
    servers.push(service)
    const serviceUrl = `http://127.0.0.1:${port}`
    await processes.waitForHttp(service, `${serviceUrl}/v1/public/openapi.json`)
    const rss = processes.sampleRss(service.pid)

    const baseline = processes.startChild([...TSX, 'bench/baseline.ts'], { cpu: 0, env: { PORT: '0' } })
    servers.push(baseline)
    const baselineUrl = `http://127.0.0.1:${await processes.waitForListening(baseline)}`
    // The raw routes of this database (bench/raw-routes.ts), for the scenarios that have one.
    let raw: { url: string; child: processes.Child } | undefined
    if (options.scenarios.some((name) => scenarioNamed(name).raw)) {
      const script = dialect === 'postgres' ? 'bench/pg-raw.ts' : 'bench/sqlite-raw.ts'
      const env = { DATABASE_URL: copy.url, ORGANISATION_ID: fixtures.organisationId, PORT: '0' }
      const child = processes.startChild([...TSX, script], { cpu: 0, env })
      servers.push(child)
      raw = { url: `http://127.0.0.1:${await processes.waitForListening(child)}`, child }
    }

    const tag = `b${Date.now().toString(36)}`
    for (const name of options.scenarios) {
      const scenario = scenarioNamed(name)
      const spec = scenario.request(fixtures)
      const captured = await capture(serviceUrl, spec, fixtures, `${tag}c`)
      const problem = checkCaptured(name, captured, fixtures)
      if (problem) log(`  ${name}: ${problem}`)
      await loadBaseline(baselineUrl, captured)
      const drive = async (url: string, server: processes.Child) => {
        const postgres = dialect === 'postgres'
        const measurement = await driveLoad(url, spec, fixtures, options, tag, { pid: server.pid, postgres })
        await processes.waitUntilIdle(server.pid)
        return measurement
      }
      const result: ScenarioResult = {
        dialect,
        size,
        scenario: name,
        label: scenario.label,
        method: spec.method,
        capturedStatus: captured.status,
        capturedBytes: captured.body.length,
        ...(problem ? { problem } : {}),
        service: await drive(serviceUrl, service),
        baseline: await drive(baselineUrl, baseline),
      }
      if (raw && scenario.raw) {
        const rawAnswer = await capture(raw.url, spec, fixtures, `${tag}r`)
        const rawProblem = checkCaptured(name, rawAnswer, fixtures)
        if (rawProblem) log(`  ${name} (raw route): ${rawProblem}`)
        const services = [result.service]
        const raws = [await drive(raw.url, raw.child)]
        // Where the ratio targets are judged, the two alternate so that what the machine does over
        // the minutes of a scenario falls on both alike; the medians are reported.
        const rounds = size === TARGET_SIZE ? options.rounds : 1
        for (let round = 1; round < rounds; round++) {
          services.push(await drive(serviceUrl, service))
          raws.push(await drive(raw.url, raw.child))
        }
        result.service = medianByCpu(services)
        result.raw = medianByCpu(raws)
        if (rounds > 1) {
          const cpu = (m: Measurement) => m.cpuUsPerRequest
          result.rounds = { service: services.map(cpu), raw: raws.map(cpu) }
        }
      }
      if (service.process.exitCode !== null) throw new Error(`the service died:\n${service.output()}`)
      results.push(result)
      logScenario(result)
    }
    rss.stop()
    const logged = service.output().trim()
    if (logged) log(`service log (tail):\n${logged.split('\n').slice(-5).join('\n')}`)
    return {
      dialect,
      size,
      liveJobs: fixtures.liveJobs,
      maxRssMb: rss.max(),
      buildSeconds: dataset.marker.buildSeconds,
    }
  } finally {
    await stopServers()
    await copy.drop()
    forgetCopy()
  }
}

/** The measurement whose CPU per request is the median (the lower middle one of an even count). */
function medianByCpu(measurements: Measurement[]): Measurement {
  const sorted = [...measurements].sort((a, b) => a.cpuUsPerRequest - b.cpuUsPerRequest)
  return sorted[Math.floor((sorted.length - 1) / 2)] as Measurement
}

function logScenario(r: ScenarioResult): void {
  const figures = (m: Measurement) =>
    `${Math.round(m.requestsPerSecond)} req/s p50 ${m.p50Ms} p99 ${m.p99Ms} ms, ` +
    `${m.cpuUsPerRequest} CPU µs/req at ${Math.round(m.cpuShare * 100)} %` +
    (m.dbCpuUsPerRequest !== undefined ? ` (+ pg ${m.dbCpuUsPerRequest})` : '')
  const failures = r.service.non2xx + r.service.errors
  let line = `  ${r.scenario.padEnd(17)} service ${figures(r.service)} | bare ${figures(r.baseline)}`
  if (r.raw) line += ` | raw ${figures(r.raw)} | raw ÷ service ${cpuRatio(r.service, r.raw).toFixed(2)}`
  if (r.rounds)
    line += ` (medians of rounds: service ${r.rounds.service.join(', ')}; raw ${r.rounds.raw.join(', ')})`
  if (failures > 0) line += ` | ${failures} non-2xx/errors (captured ${r.capturedStatus})`
  log(line)
}

main().then(
  () => process.exit(0),
  async (error) => {
    log(`\nbenchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    await processes.runCleanups()
    process.exit(1)
  },
)
