// Child processes of a benchmark run: the service, the baseline, the raw pg or SQLite route (core 0)
// and the load generator (core 1), each pinned with taskset. Every child is tracked and killed when
// the run ends, fails or is interrupted; cleanup tasks (dropping working copies) run on the way out.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { ROOT_DIR } from './paths.js'
import { cpuTicksOf } from './proc-stat.js'

const children = new Set<ChildProcess>()
const cleanups = new Set<() => Promise<void>>()
const OUTPUT_TAIL = 16_384

/** taskset is used only where it exists and there are two cores to split between. */
export const PINNING = availableParallelism() >= 2 && spawnSync('taskset', ['-V']).status === 0

export interface Child {
  process: ChildProcess
  pid: number
  /** The last few KB the child wrote to stdout and stderr. */
  output(): string
  /** Resolves with the exit code when the child ends. */
  exited: Promise<number | null>
}

export function startChild(
  args: string[],
  options: { cpu?: number; env?: NodeJS.ProcessEnv; stdin?: boolean } = {},
): Child {
  const command =
    PINNING && options.cpu !== undefined ? ['taskset', '-c', String(options.cpu), ...args] : args
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT_DIR,
    env: { ...process.env, ...options.env },
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let tail = ''
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      children.delete(child)
      resolve(code)
    })
    child.once('error', (error) => {
      keep(Buffer.from(String(error)))
      children.delete(child)
      resolve(-1)
    })
  })
  return { process: child, pid: child.pid ?? -1, output: () => tail, exited }
}

/** SIGTERM, then SIGKILL if the child has not gone within `graceMs`. */
export async function stopChild(child: Child, graceMs = 5_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return
  child.process.kill('SIGTERM')
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs)
  await child.exited
  clearTimeout(timer)
}

/** Waits until the child prints `listening <port>` and returns the port. */
export async function waitForListening(child: Child, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const match = /listening (\d+)/.exec(child.output())
    if (match) return Number(match[1])
    if (child.process.exitCode !== null) throw new Error(`child exited early:\n${child.output()}`)
    if (Date.now() > deadline) throw new Error(`child did not start in time:\n${child.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Polls `url` until anything answers over HTTP; fails if the child dies first. */
export async function waitForHttp(child: Child, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`the service exited early:\n${child.output()}`)
    try {
      await fetch(url)
      return
    } catch {
      if (Date.now() > deadline) throw new Error(`the service did not answer in time:\n${child.output()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** Samples VmRSS of `pid` every `intervalMs`; max() is the largest value seen, in MB. */
export function sampleRss(pid: number, intervalMs = 200) {
  let maxKb = 0
  const sample = () => {
    try {
      const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (match) maxKb = Math.max(maxKb, Number(match[1]))
    } catch {
      // The process has ended: keep what was seen.
    }
  }
  sample()
  const timer = setInterval(sample, intervalMs)
  timer.unref()
  return {
    max: () => Math.round(maxKb / 102.4) / 10,
    stop: () => {
      sample()
      clearInterval(timer)
    },
  }
}

/**
 * Waits until `pid` has used almost no CPU for two samples in a row, so that what a slow server still
 * had queued from one measurement does not run during the next one.
 */
export async function waitUntilIdle(pid: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let quiet = 0
  let last = cpuTicksOf(pid)
  while (quiet < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    const now = cpuTicksOf(pid)
    if (Number.isNaN(now)) return
    // Clock ticks are 10 ms: at most one tick in 100 ms is idle enough.
    quiet = now - last <= 1 ? quiet + 1 : 0
    last = now
  }
}

/** Registers an async cleanup (e.g. dropping a working copy); returns its removal. */
export function onCleanup(task: () => Promise<void>): () => void {
  cleanups.add(task)
  return () => cleanups.delete(task)
}

export async function runCleanups(): Promise<void> {
  for (const child of children) child.kill('SIGKILL')
  for (const task of [...cleanups].reverse()) {
    cleanups.delete(task)
    await task().catch((error) => process.stderr.write(`cleanup failed: ${error}\n`))
  }
}

/** Children are killed on every way out: normal exit, failure, Ctrl-C, SIGTERM. */
export function installExitHandlers(): void {
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL')
  })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the benchmark and cleaning up…\n`)
      const force = setTimeout(() => process.exit(130), 15_000)
      runCleanups().finally(() => {
        clearTimeout(force)
        process.exit(130)
      })
    })
  }
}

/** Builds dist/ for `node dist/main.js`; throws with the compiler's output when it fails. */
export function buildService(log: (line: string) => void): void {
  log('building dist/ (tsc -p tsconfig.build.json)…')
  const tsc = join(ROOT_DIR, 'node_modules', 'typescript', 'bin', 'tsc')
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: ROOT_DIR,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`${result.stdout}${result.stderr}`)
}
