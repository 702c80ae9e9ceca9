// The technician's offline queue: starts, completions and form submissions made without a connection
// wait on the phone (localStorage, per user) and are sent in the order they were made once the
// connection returns. Each keeps the Idempotency-Key it was given when it was made, so a replay of a
// request the server already ran (the answer was lost in a dead zone) gets the first answer back and
// never emits an event twice. An answer that refuses the action (the job was reassigned, cancelled,
// or the answers are invalid) removes it and leaves a refusal for the worker to read.
// A photo or signature is an action too, in the same order: its bytes wait in a BlobStore under its
// key (localStorage holds strings only, and little), dropped once it is sent or refused for good.
import { ApiError, errorMessage } from '../../api/errors'
import type { BlobStore } from './blob-store'
import type { FormAnswers } from './types'

interface ActionBase {
  /** The Idempotency-Key, kept across every replay. */
  key: string
  jobId: string
  jobTitle: string
  queuedAt: string
}

export type QueuedAction =
  | (ActionBase & { kind: 'start' })
  | (ActionBase & { kind: 'complete'; notes?: string })
  | (ActionBase & { kind: 'form'; templateId: string; formName: string; answers: FormAnswers })
  | (ActionBase & {
      kind: 'attachment'
      attachmentKind: AttachmentKind
      filename: string
      /** SIGNATURE: who signed, and when (the moment Save was pressed, not when it is sent). */
      signerName?: string
      signedAt?: string
    })

export type AttachmentKind = 'PHOTO' | 'SIGNATURE'
export type AttachmentAction = Extract<QueuedAction, { kind: 'attachment' }>

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
/** An action as it is queued (the queue stamps queuedAt). */
export type NewAction = DistributiveOmit<QueuedAction, 'queuedAt'>
/** An action as a page asks for it (the key is made for it). */
export type ActionInput = DistributiveOmit<QueuedAction, 'queuedAt' | 'key'>

export interface Refusal {
  key: string
  jobId: string
  jobTitle: string
  kind: QueuedAction['kind']
  formName?: string
  attachmentKind?: AttachmentKind
  status: number
  code: string
  /** What happened, for the worker, in full. */
  message: string
  at: string
}

export type SendOutcome =
  | { type: 'done' }
  | { type: 'retry'; reason: string }
  | { type: 'refused'; status: number; code: string; message: string }

interface Stored {
  actions: QueuedAction[]
  refusals: Refusal[]
}

export interface QueueState extends Stored {
  sending: boolean
  /** Why the last attempt stopped (offline, server busy …), until the next success. */
  lastProblem: string | null
}

const STORAGE_PREFIX = 'fieldservice.my.queue.'

/** A fresh Idempotency-Key. getRandomValues, not randomUUID: that needs a secure context. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * What an answer (or a thrown error) means for a queued action: sent, try again later (no
 * connection, the session ended, the server busy or the same key still running), or refused for good.
 */
export function classifyFailure(error: unknown): SendOutcome {
  if (!(error instanceof ApiError)) return { type: 'retry', reason: errorMessage(error) }
  if (error.status === 401) return { type: 'retry', reason: 'Your session has ended: sign in again to send.' }
  if (error.status === 408 || error.status === 429 || error.status >= 500) {
    return { type: 'retry', reason: `The server could not take it just now (${error.status}).` }
  }
  if (error.code === 'IDEMPOTENCY_KEY_IN_USE') return { type: 'retry', reason: 'Still being processed.' }
  return { type: 'refused', status: error.status, code: error.code, message: refusalMessage(error) }
}

function refusalMessage(error: ApiError): string {
  if (error.status === 404) return 'This job is no longer assigned to you: it was reassigned or removed.'
  if (error.code === 'INVALID_TRANSITION' || error.code === 'TERMINAL_STATE') {
    return `The job changed meanwhile (it may have been cancelled): ${error.message}`
  }
  if (error.code === 'FORM_REQUIRED') return `A required form is missing: ${error.message}`
  if (error.code === 'PAYLOAD_TOO_LARGE' || error.code === 'UNSUPPORTED_MEDIA_TYPE') {
    return `The server could not take this picture: ${error.message}`
  }
  if (error.code === 'COMPLETION_REQUIREMENTS') return `Something the job needs is missing: ${error.message}`
  if (error.details.length > 0) {
    return `${error.message}: ${error.details.map((d) => `${d.path.replace(/^\/body\/answers\//, '')} ${d.message}`).join('; ')}`
  }
  return error.message
}

/** "Your completion was not recorded" — what was lost, in the worker's words. */
export function lostActionHeadline(refusal: Pick<Refusal, 'kind' | 'formName' | 'attachmentKind'>): string {
  if (refusal.kind === 'start') return 'Your start was not recorded'
  if (refusal.kind === 'complete') return 'Your completion was not recorded'
  if (refusal.kind === 'attachment') {
    return refusal.attachmentKind === 'SIGNATURE'
      ? 'The signature was not recorded'
      : 'Your photo was not recorded'
  }
  return `Your “${refusal.formName ?? 'form'}” answers were not recorded`
}

export class OfflineQueue {
  private state: QueueState
  private readonly listeners = new Set<() => void>()
  private flushing: Promise<void> | null = null
  private flushAgain: Promise<void> | null = null

  constructor(
    private readonly storage: Storage,
    private readonly userId: string,
    private readonly now: () => Date = () => new Date(),
    /** Where queued photos and signatures keep their bytes. */
    readonly blobs: BlobStore | null = null,
  ) {
    this.state = { ...this.read(), sending: false, lastProblem: null }
  }

  private get storageKey(): string {
    return `${STORAGE_PREFIX}${this.userId}`
  }

  private read(): Stored {
    try {
      const parsed = JSON.parse(this.storage.getItem(this.storageKey) ?? 'null') as Partial<Stored> | null
      return { actions: parsed?.actions ?? [], refusals: parsed?.refusals ?? [] }
    } catch {
      return { actions: [], refusals: [] }
    }
  }

  private update(change: Partial<QueueState>, persist = true): void {
    this.state = { ...this.state, ...change }
    if (persist) {
      const { actions, refusals } = this.state
      this.storage.setItem(this.storageKey, JSON.stringify({ actions, refusals }))
    }
    for (const listener of this.listeners) listener()
  }

  /** Another tab changed the stored queue. */
  reload(): void {
    this.update(this.read(), false)
  }

  getState = (): QueueState => this.state

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  enqueue(action: NewAction): QueuedAction {
    const queued = { ...action, queuedAt: this.now().toISOString() } as QueuedAction
    this.update({ actions: [...this.state.actions, queued] })
    return queued
  }

  /**
   * Queues a photo or signature: its bytes are kept first, so an action in the queue always has them
   * (a phone that dies between the two keeps an orphan blob, never an action without its picture).
   */
  async enqueueAttachment(action: Omit<AttachmentAction, 'queuedAt'>, blob: Blob): Promise<QueuedAction> {
    if (!this.blobs) throw new Error('This queue keeps no pictures (no BlobStore)')
    await this.blobs.put(action.key, blob)
    return this.enqueue(action)
  }

  dismissRefusal(key: string): void {
    this.update({ refusals: this.state.refusals.filter((refusal) => refusal.key !== key) })
  }

  /**
   * Sends the queued actions one at a time, oldest first, and stops at the first that must wait
   * (the rest may depend on it: a completion on its form). One flush at a time; one asked for
   * meanwhile runs after it.
   */
  flush(send: (action: QueuedAction) => Promise<SendOutcome>): Promise<void> {
    if (this.flushing) {
      // Asked for while a flush runs — back online while a send made offline is failing, say: go
      // again once it ends rather than wait for the next retry. Asks meanwhile share that one round.
      const again = () => {
        this.flushAgain = null
        return this.flush(send)
      }
      // After the running round however it ended: a failed one must not leave this set for good.
      this.flushAgain ??= this.flushing.then(again, again)
      return this.flushAgain
    }
    // Cleared in .finally (a later microtask), never before it is set: a flush with nothing to send
    // finishes synchronously.
    this.flushing = this.sendAll(send).finally(() => {
      this.flushing = null
      this.update({ sending: false }, false)
    })
    return this.flushing
  }

  private async sendAll(send: (action: QueuedAction) => Promise<SendOutcome>): Promise<void> {
    this.update({ sending: true }, false)
    for (;;) {
      const action = this.state.actions[0]
      if (!action) return
      const outcome = await send(action)
      if (outcome.type === 'retry') {
        this.update({ lastProblem: outcome.reason }, false)
        return
      }
      // Sent, or refused for good: its bytes are no longer needed (a refusal is not retried).
      if (action.kind === 'attachment') await this.blobs?.delete(action.key).catch(() => undefined)
      // Read after that wait: an action queued meanwhile stays.
      const actions = this.state.actions.filter((queued) => queued.key !== action.key)
      if (outcome.type === 'done') {
        this.update({ actions, lastProblem: null })
        continue
      }
      const refusal: Refusal = {
        key: action.key,
        jobId: action.jobId,
        jobTitle: action.jobTitle,
        kind: action.kind,
        ...(action.kind === 'form' ? { formName: action.formName } : {}),
        ...(action.kind === 'attachment' ? { attachmentKind: action.attachmentKind } : {}),
        status: outcome.status,
        code: outcome.code,
        message: outcome.message,
        at: this.now().toISOString(),
      }
      this.update({ actions, refusals: [...this.state.refusals, refusal], lastProblem: null })
    }
  }
}
