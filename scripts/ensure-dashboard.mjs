// Builds the web dashboard (web/ → dist/web) when it is missing or older than its sources, so
// `npm run demo`, `npm run dev` and `npm start` on a fresh clone serve it (the browser tests call it
// too). Plain JavaScript: `npm start` runs it without tsx. Without Vite (a production install
// without devDependencies) it says so and the service starts anyway, answering `/` with a page that
// explains how to build it. A lock directory keeps two of these (two test workers, a test and a
// `npm run dev`) from building into dist/web at once: the second waits, then finds it fresh.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const built = join(root, 'dist/web/index.html')
const lock = join(root, 'dist/.web-build.lock')
const sources = [join(root, 'web'), join(root, 'package-lock.json')]
const LOCK_STALE_MS = 120_000

function newestChange(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue
    newest = Math.max(newest, newestChange(join(path, entry)))
  }
  return newest
}

function isStale() {
  if (!existsSync(built)) return true
  const builtAt = statSync(built).mtimeMs
  return sources.some((path) => existsSync(path) && newestChange(path) > builtAt)
}

function takeLock() {
  mkdirSync(join(root, 'dist'), { recursive: true })
  for (;;) {
    try {
      mkdirSync(lock)
      return
    } catch {
      // Another build is running; a lock left behind by a killed one is taken over once it is old.
      const since = existsSync(lock) ? Date.now() - statSync(lock).mtimeMs : 0
      if (since > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true })
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200)
    }
  }
}

if (isStale()) {
  takeLock()
  try {
    if (isStale()) build()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

function build() {
  const vite = join(root, 'node_modules/vite/bin/vite.js')
  if (!existsSync(vite)) {
    process.stdout.write(
      'dashboard: not built, and Vite is not installed (npm install, then npm run build:web)\n',
    )
    return
  }
  process.stdout.write(
    existsSync(built) ? 'dashboard: web/ changed, rebuilding…\n' : 'dashboard: building (first run)…\n',
  )
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'],
    // Always React's production build: a build started under vitest (NODE_ENV=test) would otherwise
    // be a development one, and dist/web is what `npm start` serves afterwards too.
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  )
  if (result.status !== 0) process.exit(result.status ?? 1)
}
