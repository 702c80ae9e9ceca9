// The offline queue in the app: one per signed-in worker, flushed when the page opens, when the
// browser says the connection is back, every RETRY_MS while something waits, and on "Send now".
// `useJobAction()` is how a page acts on a job: sent at once when it can be, queued when there is no
// connection (or older actions still wait, so the order holds).
import { useQueryClient } from '@tanstack/react-query'
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react'
import { ApiError } from '../../api/errors'
import { IndexedDbBlobStore } from './blob-store'
import {
  type ActionInput,
  type AttachmentAction,
  classifyFailure,
  type NewAction,
  newIdempotencyKey,
  OfflineQueue,
  type QueuedAction,
  type QueueState,
  type SendOutcome,
} from './offline-queue'
import { fetchMyJobFromServer, myKeys, sendQueuedAction } from './queries'
import type { MyJob } from './types'

type AttachmentInput = Omit<AttachmentAction, 'queuedAt' | 'key'>

const RETRY_MS = 15_000
/** Asking why an action was refused: tries, and the pause between them, while the connection settles. */
const EXPLAIN_TRIES = 4
const EXPLAIN_PAUSE_MS = 500

interface QueueApi {
  queue: OfflineQueue
  flush(): Promise<void>
}

const QueueContext = createContext<QueueApi | null>(null)

/**
 * The job as the server has it now. Never the copy kept on the phone: it predates the refusal (the
 * cancelled job it kept is still ASSIGNED). A connection coming back can still fail the read that
 * follows the refusal (the page's network back before the service worker's): a few tries.
 */
async function currentJob(id: string): Promise<MyJob> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchMyJobFromServer(id)
    } catch (error) {
      if (error instanceof ApiError || attempt >= EXPLAIN_TRIES) throw error
      await new Promise((resolve) => setTimeout(resolve, EXPLAIN_PAUSE_MS))
    }
  }
}

/**
 * A refusal in the worker's words: what became of the job since the action was made (reassigned,
 * cancelled, completed by someone else), read from the job as it is now.
 */
async function explainRefusal(action: QueuedAction, outcome: SendOutcome): Promise<SendOutcome> {
  if (outcome.type !== 'refused' || outcome.status === 400) return outcome
  try {
    const job = await currentJob(action.jobId)
    if (job.status === 'CANCELLED') return { ...outcome, message: 'This job was cancelled by the office.' }
    if (job.status === 'COMPLETED' && action.kind !== 'complete') {
      return { ...outcome, message: 'This job was already completed.' }
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return { ...outcome, message: 'This job was reassigned to someone else or removed.' }
    }
  }
  return outcome
}

export function OfflineQueueProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const queryClient = useQueryClient()
  const [queue] = useState(
    () => new OfflineQueue(window.localStorage, userId, undefined, new IndexedDbBlobStore(userId)),
  )
  const flush = useCallback(async () => {
    const before = queue.getState().actions.length
    await queue.flush(async (action): Promise<SendOutcome> => {
      try {
        await sendQueuedAction(queryClient, action, true, queue.blobs)
        return { type: 'done' }
      } catch (error) {
        return explainRefusal(action, classifyFailure(error))
      }
    })
    if (queue.getState().actions.length !== before)
      await queryClient.invalidateQueries({ queryKey: myKeys.all })
  }, [queue, queryClient])

  const waiting = useSyncExternalStore(queue.subscribe, () => queue.getState().actions.length > 0)
  useEffect(() => {
    void flush()
    const online = () => void flush()
    const storage = (event: StorageEvent) => {
      if (event.key?.endsWith(userId)) queue.reload()
    }
    window.addEventListener('online', online)
    window.addEventListener('storage', storage)
    return () => {
      window.removeEventListener('online', online)
      window.removeEventListener('storage', storage)
    }
  }, [flush, queue, userId])
  useEffect(() => {
    if (!waiting) return
    const timer = setInterval(() => void flush(), RETRY_MS)
    return () => clearInterval(timer)
  }, [waiting, flush])

  const value = useMemo(() => ({ queue, flush }), [queue, flush])
  return <QueueContext.Provider value={value}>{children}</QueueContext.Provider>
}

function useQueueApi(): QueueApi {
  const value = useContext(QueueContext)
  if (!value) throw new Error('useQueue outside <OfflineQueueProvider>')
  return value
}

export function useQueue(): QueueState & QueueApi {
  const api = useQueueApi()
  const state = useSyncExternalStore(api.queue.subscribe, api.queue.getState)
  return { ...state, ...api }
}

/**
 * Adds a photo or signature: always through the queue (its bytes kept on the phone first), then sent
 * at once when there is a connection. Queued behind any older action, so a completion made after it
 * is sent after it.
 */
export function useAddAttachment(): (input: AttachmentInput, blob: Blob) => Promise<void> {
  const { queue, flush } = useQueueApi()
  return useCallback(
    async (input, blob) => {
      await queue.enqueueAttachment({ ...input, key: newIdempotencyKey() }, blob)
      void flush()
    },
    [queue, flush],
  )
}

/** Sent, or kept on the phone to send later. */
export type ActionResult = 'sent' | 'queued'

/**
 * Runs an action on a job. Throws the server's refusal (shown where the worker acted: the confirm
 * dialog, the form's fields); anything that means "not now" (no connection, server busy, session
 * ended) queues it with the key it was first sent with.
 */
export function useJobAction(): (action: ActionInput) => Promise<ActionResult> {
  const { queue, flush } = useQueueApi()
  const queryClient = useQueryClient()
  return useCallback(
    async (input) => {
      const action = { ...input, key: newIdempotencyKey() } as NewAction
      if (!navigator.onLine || queue.getState().actions.length > 0) {
        queue.enqueue(action)
        void flush()
        return 'queued'
      }
      try {
        const now = new Date().toISOString()
        await sendQueuedAction(queryClient, { ...action, queuedAt: now } as QueuedAction, false)
        return 'sent'
      } catch (error) {
        if (error instanceof ApiError && classifyFailure(error).type === 'refused') throw error
        queue.enqueue(action)
        return 'queued'
      }
    },
    [queue, flush, queryClient],
  )
}
