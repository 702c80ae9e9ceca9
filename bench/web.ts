// `npm run bench:web`: how the pages people open feel on a slow phone connection (issue 33 §2). The
// demo (embedded SQLite, a fresh database) is served by a child process; Debian's Chromium, through
// playwright-core, loads each page under Chromium's network emulation (300 ms latency, 400 kbit/s
// down and up, the figures), cold (a new profile: no HTTP cache, no service worker) and warm
// (the same profile, loaded again), and records:
// - the time from navigation to the page's first useful content (sign-in: the form; board: the first
//   worker's row; My day: the first job; tracking page: the visit's heading);
// - the bytes transferred (encoded, as on the wire) by kind: scripts, styles, the document, API.
// Each measure is the median of --runs loads (default 3). --root DIR serves another checkout's build
// and code (a worktree at an older commit) for a before/after in one run; --out FILE (default
// docs/web-benchmarks.md; '-' prints only).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { ROOT_DIR } from './paths.js'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name)
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback
}
const roots = args.flatMap((arg, i) => (arg === '--root' ? [resolve(args[i + 1]!)] : []))
const runs = Number(option('--runs', '3'))
const out = option('--out', join(ROOT_DIR, 'docs/web-benchmarks.md'))
const LATENCY_MS = 300
const KBITS = 400
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** The demo's clock (faketime): a Monday mid-morning, so My day has jobs and the board its rows. */
const DEMO_NOW = '2026-11-30T10:10:00Z'

interface Demo {
  child: ChildProcess
  base: string
  dbFile: string
  dir: string
  signIns: Record<'admin' | 'dispatcher' | 'worker', { email: string; password: string }>
  adminKey: string
}

/** The demo of `root` on a fresh database and a free port; resolves once it listens. */
async function startDemo(root: string, port: number): Promise<Demo> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldservice-bench-web-'))
  const dbFile = join(dir, 'demo.db')
  const child = spawn(
    'faketime',
    [
      '-f',
      `@${DEMO_NOW.slice(0, 10)} ${DEMO_NOW.slice(11, 19)}`,
      process.execPath,
      '--import',
      'tsx',
      'src/cli/index.ts',
      'demo',
      '--json',
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: `sqlite://${dbFile}`,
        PORT: String(port),
        WEBHOOK_ALLOW_PRIVATE: 'true',
        METRICS_PORT: String(port + 100),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: faketime starts node as a child, and both must stop with the bench.
      detached: true,
    },
  )
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const started = Date.now()
  while (!output.includes('fieldservice is listening')) {
    if (child.exitCode !== null || Date.now() - started > 120_000) {
      stopDemo(child)
      throw new Error(`the demo of ${root} did not start:\n${output.slice(-2000)}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  const json = JSON.parse(output.slice(output.indexOf('{'), output.indexOf('\n}') + 2))
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    dbFile,
    dir,
    signIns: json.signIns,
    adminKey: json.adminKey,
  }
}

function stopDemo(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGTERM')
  } catch {
    // Already gone.
  }
}

type Kind = 'script' | 'style' | 'document' | 'api' | 'other'

interface Load {
  ms: number
  bytes: Record<Kind, number>
}

/** Loads `path` in `page` under the emulation; resolves when `ready` has appeared. */
async function measure(page: Page, url: string, ready: (page: Page) => Promise<unknown>): Promise<Load> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: LATENCY_MS,
    downloadThroughput: (KBITS * 1000) / 8,
    uploadThroughput: (KBITS * 1000) / 8,
  })
  const kinds = new Map<string, Kind>()
  const bytes: Record<Kind, number> = { script: 0, style: 0, document: 0, api: 0, other: 0 }
  cdp.on('Network.responseReceived', (event) => {
    const type = event.type as string
    const kind: Kind =
      type === 'Script'
        ? 'script'
        : type === 'Stylesheet'
          ? 'style'
          : type === 'Document'
            ? 'document'
            : type === 'Fetch' || type === 'XHR'
              ? 'api'
              : 'other'
    kinds.set(event.requestId, kind)
  })
  cdp.on('Network.loadingFinished', (event) => {
    const kind = kinds.get(event.requestId) ?? 'other'
    bytes[kind] += event.encodedDataLength
  })
  const started = Date.now()
  await page.goto(url, { waitUntil: 'commit' })
  await ready(page)
  const ms = Date.now() - started
  await cdp.detach()
  return { ms, bytes }
}

interface PageSpec {
  name: string
  path: (demo: Demo, token: string) => string
  signIn: 'dispatcher' | 'worker' | null
  ready: (page: Page) => Promise<unknown>
}

const PAGES: PageSpec[] = [
  {
    name: 'Sign-in',
    path: () => '/sign-in',
    signIn: null,
    ready: (page) => page.getByLabel('Password').waitFor({ timeout: 120_000 }),
  },
  {
    name: 'Board (dispatcher)',
    path: () => '/board',
    signIn: 'dispatcher',
    ready: (page) =>
      page.locator('.timeline-row, [role="group"][aria-label*="·"]').first().waitFor({ timeout: 120_000 }),
  },
  {
    name: 'My day (worker, phone)',
    path: () => '/my',
    signIn: 'worker',
    ready: (page) =>
      page
        .getByRole('list', { name: /in route order/ })
        .getByRole('article')
        .first()
        .waitFor({ timeout: 120_000 }),
  },
  {
    name: 'Tracking page (customer, phone)',
    path: (_demo, token) => `/t/${token}`,
    signIn: null,
    ready: (page) => page.getByRole('heading', { level: 1 }).waitFor({ timeout: 120_000 }),
  },
]

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

/** Signs the context in (its cookie); returns the session's CSRF token, which every change sends. */
async function signInContext(
  context: BrowserContext,
  demo: Demo,
  who: 'dispatcher' | 'worker',
): Promise<string> {
  const answer = await context.request.post(`${demo.base}/v1/admin/session`, {
    data: demo.signIns[who],
    headers: { origin: demo.base },
  })
  if (!answer.ok()) throw new Error(`sign-in as ${who}: ${answer.status()} ${await answer.text()}`)
  return ((await answer.json()) as { data: { session: { csrfToken: string } } }).data.session.csrfToken
}

/** A tracking link: the worker sets off to their next job, and the event carries the link. */
async function trackingToken(
  demo: Demo,
  browser: Awaited<ReturnType<typeof chromium.launch>>,
): Promise<string> {
  const context = await browser.newContext()
  const csrf = await signInContext(context, demo, 'worker')
  const day = await context.request.get(`${demo.base}/v1/admin/my/jobs?date=${DEMO_NOW.slice(0, 10)}`)
  const body = (await day.json()) as { data?: { jobs: { id: string; status: string }[] } }
  if (!body.data) throw new Error(`my jobs: ${day.status()} ${JSON.stringify(body)}`)
  const jobs = body.data.jobs
  const next = jobs.find((job) => job.status === 'ASSIGNED')
  if (!next) throw new Error('the demo worker has no ASSIGNED job to set off to')
  const enRoute = await context.request.post(`${demo.base}/v1/admin/my/jobs/${next.id}/en-route`, {
    headers: { origin: demo.base, 'x-csrf-token': csrf },
  })
  if (!enRoute.ok()) throw new Error(`en-route: ${enRoute.status()} ${await enRoute.text()}`)
  await context.close()
  const db = new Database(demo.dbFile, { readonly: true })
  try {
    const row = db
      .prepare(
        "select data from outbox_events where event = 'JOB_EN_ROUTE' order by occurred_at desc limit 1",
      )
      .get() as { data: string } | undefined
    const url = row ? (JSON.parse(row.data) as { trackingUrl: string }).trackingUrl : ''
    const token = url.split('/t/')[1]
    if (!token) throw new Error('no tracking link in the JOB_EN_ROUTE event')
    return token
  } finally {
    db.close()
  }
}

interface Result {
  root: string
  page: string
  cold: Load
  warm: Load
}

async function benchRoot(root: string, port: number): Promise<Result[]> {
  const demo = await startDemo(root, port)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  try {
    const token = await trackingToken(demo, browser)
    const results: Result[] = []
    for (const spec of PAGES) {
      const colds: Load[] = []
      const warms: Load[] = []
      for (let run = 0; run < runs; run++) {
        const phone = spec.signIn === 'worker' || spec.name.includes('phone')
        const context = await browser.newContext(
          phone
            ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
            : { viewport: { width: 1440, height: 900 } },
        )
        // The browser's clock at the demo's: My day and the board show the day the demo made.
        await context.clock.setFixedTime(new Date(DEMO_NOW))
        if (spec.signIn) await signInContext(context, demo, spec.signIn)
        const page = await context.newPage()
        const url = `${demo.base}${spec.path(demo, token)}`
        colds.push(await measure(page, url, spec.ready))
        // Let a service worker install and take control, as it would between two visits.
        await page.waitForTimeout(1500)
        const again = await context.newPage()
        warms.push(await measure(again, url, spec.ready))
        await context.close()
      }
      const pick = (loads: Load[]): Load => {
        const ms = median(loads.map((l) => l.ms))
        return loads.find((l) => l.ms === ms)!
      }
      results.push({ root, page: spec.name, cold: pick(colds), warm: pick(warms) })
      process.stdout.write(`${root} ${spec.name}: cold ${pick(colds).ms} ms, warm ${pick(warms).ms} ms\n`)
    }
    return results
  } finally {
    await browser.close()
    stopDemo(demo.child)
    await new Promise((r) => setTimeout(r, 500))
    rmSync(demo.dir, { recursive: true, force: true })
  }
}

/** The checkout's commit, with "+ changes" when its tree differs from it. */
function commitOf(root: string): string {
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: root,
    encoding: 'utf8',
  })
  return dirty.trim() ? `${head} + changes` : head
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1)

function render(results: Result[], all: string[]): string {
  const lines = [
    '# Web page loads on a slow phone connection',
    '',
    'Generated by `bench/web.ts` (`npm run bench:web`); do not edit by hand. The demo on a fresh',
    `embedded SQLite database, Debian's Chromium (playwright-core) with network emulation: ${LATENCY_MS} ms`,
    `latency, ${KBITS} kbit/s down and up. Cold: a new profile (no HTTP cache, no service worker); warm: the`,
    'same profile loading the page again. Time: from navigation to the page’s first useful content',
    '(sign-in form, first worker row, first job, the visit’s heading); bytes: encoded, as transferred,',
    `by kind. Medians of ${runs} loads.`,
    '',
    `- Date: ${new Date().toISOString().slice(0, 10)}; Node ${process.version}`,
    ...all.map(
      (root, i) =>
        `- Build ${String.fromCharCode(65 + i)}: \`${root === ROOT_DIR ? 'this checkout' : root}\``,
    ),
    '',
    '| build | page | cold s | warm s | cold JS kB | cold CSS kB | cold document kB | cold API kB | warm transferred kB |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const r of results) {
    const warmTotal = Object.values(r.warm.bytes).reduce((a, b) => a + b, 0)
    lines.push(
      `| ${String.fromCharCode(65 + all.indexOf(r.root))} | ${r.page} | ${(r.cold.ms / 1000).toFixed(2)} | ${(r.warm.ms / 1000).toFixed(2)} | ` +
        `${kb(r.cold.bytes.script)} | ${kb(r.cold.bytes.style)} | ${kb(r.cold.bytes.document)} | ${kb(r.cold.bytes.api)} | ${kb(warmTotal)} |`,
    )
  }
  return `${lines.join('\n')}\n`
}

const all = roots.length > 0 ? roots : [ROOT_DIR]
const results: Result[] = []
for (const [i, root] of all.entries()) results.push(...(await benchRoot(root, 3900 + i)))
const report = render(results, all)
if (out === '-') process.stdout.write(report)
else {
  writeFileSync(out, report)
  process.stdout.write(`wrote ${out}\n`)
}
