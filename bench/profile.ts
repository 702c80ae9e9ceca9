// `npx tsx bench/profile.ts --dialect sqlite --size 100k --scenario jobs-list [--seconds 10] [--raw]`
// Where one scenario's CPU goes: the service (or, with --raw, its raw route) runs under
// `node --cpu-prof` on a working copy of the benchmark dataset, autocannon drives the scenario as
// `npm run bench` does, and the profile written at exit is summarised: self time by package or source
// folder, then the heaviest functions. The .cpuprofile stays in bench/results/profiles/ for a flame
// graph (Chrome DevTools › Performance, or speedscope).
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createWorkingCopy, ensureDataset } from './dataset.js'
import { driveLoad } from './drive.js'
import { loadFixtures } from './fixtures.js'
import { type BenchDialect, parseOptions, parseSize } from './options.js'
import { BENCH_DIR, ROOT_DIR } from './paths.js'
import * as processes from './processes.js'
import { scenarioNamed } from './scenarios.js'

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const log = (line: string) => process.stderr.write(`${line}\n`)

/** Where a frame's code lives: a package, a folder of src/, node's internals, or the engine. */
function placeOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1] as string
  if (url.startsWith('node:')) return 'node:internal'
  const source = /\/(src|bench|dist)\/(.*)\/[^/]+$/.exec(url)
  if (source) return `${source[1]}/${source[2]}`
  const file = /\/(src|bench|dist)\/[^/]+$/.exec(url)
  return file ? `${file[1]}/` : url
}

export function summarise(profile: CpuProfile, top = 30): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<number, number>()
  let total = 0
  for (const [i, id] of profile.samples.entries()) {
    const delta = profile.timeDeltas[i] ?? 0
    self.set(id, (self.get(id) ?? 0) + delta)
    total += delta
  }
  const places = new Map<string, number>()
  const functions = new Map<string, number>()
  for (const [id, time] of self) {
    const frame = byId.get(id)?.callFrame
    if (!frame) continue
    const place = placeOf(frame.url, frame.functionName)
    places.set(place, (places.get(place) ?? 0) + time)
    const file = frame.url ? relative(ROOT_DIR, frame.url.replace(/^file:\/\//, '')) : ''
    const name = `${frame.functionName || '(anonymous)'} ${file}${file ? `:${frame.lineNumber + 1}` : ''}`
    functions.set(name, (functions.get(name) ?? 0) + time)
  }
  const share = (time: number) => `${((100 * time) / total).toFixed(1).padStart(5)} %`
  const lines = [`self time, ${(total / 1e6).toFixed(2)} s sampled`, '', 'by place:']
  for (const [place, time] of [...places].sort((a, b) => b[1] - a[1]).slice(0, 20))
    lines.push(`  ${share(time)}  ${place}`)
  lines.push('', 'by function:')
  for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${share(time)}  ${name}`)
  return lines.join('\n')
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dialect: { type: 'string', default: 'sqlite' },
      size: { type: 'string', default: '100k' },
      scenario: { type: 'string', default: 'jobs-list' },
      seconds: { type: 'string', default: '10' },
      raw: { type: 'boolean', default: false },
      top: { type: 'string', default: '30' },
    },
  })
  const dialect = values.dialect as BenchDialect
  const size = parseSize(values.size)
  const scenario = scenarioNamed(values.scenario)
  const options = parseOptions(['--duration', values.seconds, '--warmup', '3'])
  if (values.raw && !scenario.raw) throw new Error(`${scenario.name} has no raw route`)
  processes.installExitHandlers()
  if (!values.raw) processes.buildService(log)

  const dataset = await ensureDataset(dialect, size, { rebuild: false, log })
  const copy = await createWorkingCopy(dataset)
  const forgetCopy = processes.onCleanup(copy.drop)
  const profiles = join(BENCH_DIR, 'results', 'profiles')
  mkdirSync(profiles, { recursive: true })
  const started = Date.now()
  try {
    const fixtures = await loadFixtures(copy.url, dataset.marker)
    const profiling = ['--cpu-prof', `--cpu-prof-dir=${profiles}`]
    const port = await processes.freePort()
    const env = {
      DATABASE_URL: copy.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SHUTDOWN_DELAY_MS: '0',
      // In-flight keep-alive connections get this long, well inside stopChild's grace below: a server
      // killed outright writes no profile.
      SHUTDOWN_TIMEOUT_MS: '2000',
      METRICS_PORT: '0',
      ORGANISATION_ID: fixtures.organisationId,
    }
    const script = dialect === 'postgres' ? 'bench/pg-raw.ts' : 'bench/sqlite-raw.ts'
    const command = values.raw
      ? [process.execPath, ...profiling, '--import', 'tsx', script]
      : [process.execPath, ...profiling, 'dist/main.js']
    const server = processes.startChild(command, { cpu: 0, env: values.raw ? { ...env, PORT: '0' } : env })
    const url = values.raw
      ? `http://127.0.0.1:${await processes.waitForListening(server)}`
      : `http://127.0.0.1:${port}`
    if (!values.raw) await processes.waitForHttp(server, `${url}/v1/public/openapi.json`)
    const spec = scenario.request(fixtures)
    const measured = await driveLoad(url, spec, fixtures, options, `p${Date.now().toString(36)}`, {
      pid: server.pid,
      postgres: dialect === 'postgres',
    })
    log(
      `${values.raw ? 'raw route' : 'service'} ${scenario.label}: ${Math.round(measured.requestsPerSecond)} req/s, ` +
        `${measured.cpuUsPerRequest} CPU µs/request at ${Math.round(measured.cpuShare * 100)} % of a core` +
        (measured.dbCpuUsPerRequest !== undefined
          ? `, PostgreSQL ${measured.dbCpuUsPerRequest} µs/request`
          : '') +
        ` (profiling adds its own cost)`,
    )
    await processes.stopChild(server, 15_000)
    const written = readdirSync(profiles)
      .map((name) => join(profiles, name))
      .filter((file) => file.endsWith('.cpuprofile') && statSync(file).mtimeMs >= started)
      // tsx's module loader runs in a worker thread, which gets a profile of its own: the request
      // thread's is the largest.
      .sort((a, b) => statSync(b).size - statSync(a).size)[0]
    if (!written) throw new Error('no profile was written (did the server exit normally?)')
    process.stdout.write(`${summarise(JSON.parse(readFileSync(written, 'utf8')), Number(values.top))}\n`)
    log(`\nprofile: ${relative(ROOT_DIR, written)}`)
  } finally {
    await copy.drop()
    forgetCopy()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    async (error) => {
      log(`profile failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      await processes.runCleanups()
      process.exit(1)
    },
  )
}
