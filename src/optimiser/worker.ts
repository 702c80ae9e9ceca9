// Runs `solve` in a node:worker_threads worker so the calling event loop (HTTP) stays responsive.
// Only plain objects and typed arrays cross the boundary. The solve loop is synchronous, so the
// worker cannot read messages while it runs: cancelling sets a shared Int32Array flag that the
// search polls every few milliseconds, and the worker then returns the best plan found so far.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import type { Plan, RoutingModel, SolveProgress } from './model.js'
import { solve } from './solve.js'

export interface WorkerSolveOptions {
  timeLimitMs?: number
  seed?: number
  maxIterations?: number
  /** See SolveOptions.stopWhenStalled. */
  stopWhenStalled?: boolean
  progressIntervalMs?: number
  onProgress?: (progress: SolveProgress) => void
  /** Aborting cancels the solve; the promise still resolves, with the best plan so far. */
  signal?: AbortSignal
}

export interface SolveHandle {
  /** Resolves with the plan (also after a cancel); rejects if the model is invalid or the worker dies. */
  plan: Promise<Plan>
  /** Stops the search at its next check; `plan` resolves with the best plan so far. */
  cancel(): void
}

interface WorkerInput {
  kind: 'fieldservice-optimiser'
  model: RoutingModel
  options: Omit<WorkerSolveOptions, 'onProgress' | 'signal'> & { reportProgress: boolean }
  cancelFlag: Int32Array
}

type WorkerMessage =
  | { type: 'progress'; progress: SolveProgress }
  | { type: 'done'; plan: Plan }
  | { type: 'error'; message: string }

/** Starts a solve in a new worker thread. */
export function solveInWorker(model: RoutingModel, options: WorkerSolveOptions = {}): SolveHandle {
  const cancelFlag = new Int32Array(new SharedArrayBuffer(4))
  const { onProgress, signal, ...rest } = options
  const input: WorkerInput = {
    kind: 'fieldservice-optimiser',
    model,
    options: { ...rest, reportProgress: onProgress !== undefined },
    cancelFlag,
  }
  const url = new URL(import.meta.url)
  // Under tsx or vitest (development, tests) this file is TypeScript: the worker registers tsx's
  // loader before importing it. dist/ runs the compiled JavaScript directly.
  const worker = url.pathname.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`,
        { eval: true, workerData: input },
      )
    : new Worker(url, { workerData: input })
  const cancel = () => Atomics.store(cancelFlag, 0, 1)
  if (signal?.aborted) cancel()
  signal?.addEventListener('abort', cancel, { once: true })
  const plan = new Promise<Plan>((resolve, reject) => {
    let settled = false
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') onProgress?.(message.progress)
      else if (message.type === 'done') {
        settled = true
        resolve(message.plan)
      } else {
        settled = true
        reject(new Error(message.message))
      }
    })
    worker.on('error', (error) => {
      settled = true
      reject(error)
    })
    worker.on('exit', (code) => {
      signal?.removeEventListener('abort', cancel)
      if (!settled) reject(new Error(`optimiser worker exited with code ${code} before finishing`))
    })
  })
  return { plan, cancel }
}

function runInWorker(input: WorkerInput): void {
  const port = parentPort!
  try {
    const { reportProgress, ...options } = input.options
    const plan = solve(input.model, {
      ...options,
      cancelFlag: input.cancelFlag,
      ...(reportProgress
        ? { onProgress: (progress: SolveProgress) => port.postMessage({ type: 'progress', progress }) }
        : {}),
    })
    port.postMessage({ type: 'done', plan } satisfies WorkerMessage)
  } catch (error) {
    port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) })
  }
}

if (!isMainThread && (workerData as WorkerInput | undefined)?.kind === 'fieldservice-optimiser') {
  runInWorker(workerData as WorkerInput)
}
