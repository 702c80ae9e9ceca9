// The offline queue's rules without a browser: order kept, the first "not now" stops the flush, a
// refusal removes the action and says why, keys survive a reload, each user has their own queue.
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/errors'
import {
  classifyFailure,
  newIdempotencyKey,
  OfflineQueue,
  type QueuedAction,
  type SendOutcome,
} from './offline-queue'
import { applyPending } from './pending'
import type { MyJob } from './types'

class MemoryStorage {
  private readonly items = new Map<string, string>()
  get length() {
    return this.items.size
  }
  clear() {
    this.items.clear()
  }
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
  setItem(key: string, value: string) {
    this.items.set(key, value)
  }
}

const at = () => new Date('2026-11-24T10:00:00Z')
const start = (key: string, jobId = 'job-1') => ({ key, kind: 'start' as const, jobId, jobTitle: 'Boiler' })
const complete = (key: string, jobId = 'job-1') => ({
  key,
  kind: 'complete' as const,
  jobId,
  jobTitle: 'Boiler',
})

describe('OfflineQueue', () => {
  it('sends in order, stops at the first action that must wait, and keeps its key for the replay', async () => {
    const storage = new MemoryStorage()
    const queue = new OfflineQueue(storage, 'user-1', at)
    queue.enqueue(start('k1'))
    queue.enqueue(complete('k2'))
    const sent: string[] = []
    await queue.flush(async (action) => {
      sent.push(action.key)
      return { type: 'retry', reason: 'offline' }
    })
    expect(sent).toEqual(['k1'])
    expect(queue.getState().actions.map((a) => a.key)).toEqual(['k1', 'k2'])
    expect(queue.getState().lastProblem).toBe('offline')

    // A reload (a new queue on the same storage) finds both, with their keys.
    const reloaded = new OfflineQueue(storage, 'user-1', at)
    await reloaded.flush(async (action) => {
      sent.push(action.key)
      return { type: 'done' }
    })
    expect(sent).toEqual(['k1', 'k1', 'k2'])
    expect(reloaded.getState().actions).toEqual([])
    expect(reloaded.getState().lastProblem).toBeNull()
    expect(new OfflineQueue(storage, 'user-2', at).getState().actions).toEqual([])
  })

  it('removes a refused action, records why, and goes on with the next', async () => {
    const queue = new OfflineQueue(new MemoryStorage(), 'user-1', at)
    queue.enqueue(start('k1', 'gone'))
    queue.enqueue(start('k2', 'job-2'))
    const outcomes: Record<string, SendOutcome> = {
      k1: classifyFailure(new ApiError(404, { error: 'Job not found', code: 'NOT_FOUND' })),
      k2: { type: 'done' },
    }
    await queue.flush(async (action) => outcomes[action.key] as SendOutcome)
    const { actions, refusals } = queue.getState()
    expect(actions).toEqual([])
    expect(refusals).toEqual([
      expect.objectContaining({ key: 'k1', jobId: 'gone', kind: 'start', status: 404, code: 'NOT_FOUND' }),
    ])
    expect(refusals[0]?.message).toMatch(/reassigned/)
    queue.dismissRefusal('k1')
    expect(queue.getState().refusals).toEqual([])
  })

  it('flushes again after a flush that found nothing to send', async () => {
    const queue = new OfflineQueue(new MemoryStorage(), 'user-1', at)
    const sent: string[] = []
    const send = async (action: QueuedAction): Promise<SendOutcome> => {
      sent.push(action.key)
      return { type: 'done' }
    }
    await queue.flush(send)
    queue.enqueue(start('k1'))
    await queue.flush(send)
    expect(sent).toEqual(['k1'])
    expect(queue.getState().sending).toBe(false)
  })

  it('runs one flush at a time', async () => {
    const queue = new OfflineQueue(new MemoryStorage(), 'user-1', at)
    queue.enqueue(start('k1'))
    let calls = 0
    const send = async (): Promise<SendOutcome> => {
      calls++
      await new Promise((resolve) => setTimeout(resolve, 10))
      return { type: 'done' }
    }
    await Promise.all([queue.flush(send), queue.flush(send)])
    expect(calls).toBe(1)
  })

  it('runs again when asked while one runs: back online during a send that fails', async () => {
    const queue = new OfflineQueue(new MemoryStorage(), 'user-1', at)
    queue.enqueue(start('k1'))
    const sent: string[] = []
    let online = false
    let askedMeanwhile: Promise<void> | undefined
    const send = async (action: QueuedAction): Promise<SendOutcome> => {
      sent.push(`${action.key} ${online ? 'online' : 'offline'}`)
      if (online) return { type: 'done' }
      await new Promise((resolve) => setTimeout(resolve, 1))
      // The connection comes back while this send is failing: the 'online' event asks for a flush.
      online = true
      askedMeanwhile = queue.flush(send)
      return { type: 'retry', reason: 'No connection' }
    }
    await queue.flush(send)
    await askedMeanwhile
    expect(sent).toEqual(['k1 offline', 'k1 online'])
    expect(queue.getState().actions).toEqual([])
  })

  it('runs the round asked for meanwhile even when the running one failed', async () => {
    const queue = new OfflineQueue(new MemoryStorage(), 'user-1', at)
    queue.enqueue(start('k1'))
    let askedMeanwhile: Promise<void> | undefined
    let calls = 0
    const send = async (): Promise<SendOutcome> => {
      calls++
      if (calls > 1) return { type: 'done' }
      await new Promise((resolve) => setTimeout(resolve, 1))
      askedMeanwhile = queue.flush(send)
      throw new Error('the sender broke')
    }
    await expect(queue.flush(send)).rejects.toThrow('the sender broke')
    await askedMeanwhile
    expect(calls).toBe(2)
    expect(queue.getState().actions).toEqual([])
  })
})

describe('classifyFailure', () => {
  it('waits on no connection, an ended session, a busy server and a key still running; refuses the rest', () => {
    expect(classifyFailure(new TypeError('Failed to fetch')).type).toBe('retry')
    expect(classifyFailure(new ApiError(401, { error: 'x', code: 'UNAUTHORIZED' })).type).toBe('retry')
    expect(classifyFailure(new ApiError(503, { error: 'x', code: 'SERVICE_UNAVAILABLE' })).type).toBe('retry')
    expect(classifyFailure(new ApiError(429, { error: 'x', code: 'RATE_LIMITED' })).type).toBe('retry')
    expect(classifyFailure(new ApiError(409, { error: 'x', code: 'IDEMPOTENCY_KEY_IN_USE' })).type).toBe(
      'retry',
    )
    for (const [status, code] of [
      [404, 'NOT_FOUND'],
      [409, 'CONFLICT'],
      [422, 'INVALID_TRANSITION'],
      [422, 'FORM_REQUIRED'],
      [400, 'VALIDATION_ERROR'],
    ] as const) {
      expect(classifyFailure(new ApiError(status, { error: 'x', code })), code).toMatchObject({
        type: 'refused',
        status,
        code,
      })
    }
  })

  it('makes distinct RFC 4122 version 4 keys', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey))
    expect(keys.size).toBe(100)
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})

describe('applyPending', () => {
  const job = {
    id: 'job-1',
    status: 'ASSIGNED',
    startedAt: null,
    completedAt: null,
    forms: [
      {
        template: { id: 'form-1' },
        submission: null,
      },
    ],
  } as unknown as MyJob
  const queued = (action: Partial<QueuedAction>) =>
    ({ jobId: 'job-1', jobTitle: 'Boiler', queuedAt: '2026-11-24T10:00:00Z', ...action }) as QueuedAction

  it('shows queued actions as done, in order, and only on their job', () => {
    const actions = [
      queued({ key: 'a', kind: 'start' }),
      queued({ key: 'b', kind: 'form', templateId: 'form-1', formName: 'Check', answers: {} } as never),
      queued({ key: 'c', kind: 'complete' }),
      queued({ key: 'd', kind: 'start', jobId: 'job-2' }),
    ]
    const shown = applyPending(job, actions)
    expect(shown.job.status).toBe('COMPLETED')
    expect(shown.job.startedAt).toBe('2026-11-24T10:00:00Z')
    expect(shown.job.forms[0]?.submission).toEqual({ id: 'b', submittedAt: '2026-11-24T10:00:00Z' })
    expect(shown.pending.map((a) => a.key)).toEqual(['a', 'b', 'c'])
    // A completion queued before the start is not applied out of order.
    expect(applyPending(job, [queued({ key: 'c', kind: 'complete' })]).job.status).toBe('ASSIGNED')
  })
})
