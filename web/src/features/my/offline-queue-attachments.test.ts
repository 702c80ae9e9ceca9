// Photos and signatures in the offline queue, without a browser: their bytes are kept (in an
// in-memory BlobStore here, IndexedDB on the phone) before the action is queued, they are sent in
// order with starts and completions under the key they were queued with, and their bytes are dropped
// once sent or refused for good — never while they must wait.
import { describe, expect, it } from 'vitest'
import type { BlobStore } from './blob-store'
import { checklistItems } from './completion-checklist'
import { queuedCounts } from './job-attachments'
import { type AttachmentAction, lostActionHeadline, OfflineQueue, type QueuedAction } from './offline-queue'
import { fitWithin } from './photo'
import type { Completion } from './types'

class MemoryStorage {
  private readonly items = new Map<string, string>()
  readonly length = 0
  clear() {
    this.items.clear()
  }
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  key() {
    return null
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
  setItem(key: string, value: string) {
    this.items.set(key, value)
  }
}

class MemoryBlobs implements BlobStore {
  readonly blobs = new Map<string, Blob>()
  async put(key: string, blob: Blob) {
    this.blobs.set(key, blob)
  }
  async get(key: string) {
    return this.blobs.get(key) ?? null
  }
  async delete(key: string) {
    this.blobs.delete(key)
  }
}

const at = () => new Date('2026-11-24T10:00:00Z')
const photo = (key: string): Omit<AttachmentAction, 'queuedAt'> => ({
  key,
  kind: 'attachment',
  attachmentKind: 'PHOTO',
  filename: `${key}.jpg`,
  jobId: 'job-1',
  jobTitle: 'Boiler',
})
const bytes = (text: string) => new Blob([text], { type: 'image/jpeg' })

function setUp() {
  const storage = new MemoryStorage()
  const blobs = new MemoryBlobs()
  return { storage, blobs, queue: new OfflineQueue(storage, 'user-1', at, blobs) }
}

describe('OfflineQueue with photos and signatures', () => {
  it('keeps the bytes under the action’s key and only the metadata in localStorage', async () => {
    const { storage, blobs, queue } = setUp()
    await queue.enqueueAttachment(photo('p1'), bytes('jpeg-1'))
    expect(await (await blobs.get('p1'))?.text()).toBe('jpeg-1')
    const stored = storage.getItem('fieldservice.my.queue.user-1') ?? ''
    expect(JSON.parse(stored).actions).toEqual([{ ...photo('p1'), queuedAt: at().toISOString() }])
    expect(stored).not.toContain('jpeg-1')
  })

  it('sends photos, a signature and the completion in the order they were made, each with its own key', async () => {
    const { blobs, queue } = setUp()
    queue.enqueue({ key: 's', kind: 'start', jobId: 'job-1', jobTitle: 'Boiler' })
    await queue.enqueueAttachment(photo('p1'), bytes('one'))
    await queue.enqueueAttachment(photo('p2'), bytes('two'))
    await queue.enqueueAttachment(
      {
        ...photo('sig'),
        attachmentKind: 'SIGNATURE',
        signerName: 'Priya Patel',
        signedAt: at().toISOString(),
      },
      new Blob(['png'], { type: 'image/png' }),
    )
    queue.enqueue({ key: 'c', kind: 'complete', jobId: 'job-1', jobTitle: 'Boiler' })
    expect(queuedCounts(queue.getState().actions)).toEqual({ photos: 2, signatures: 1 })

    const sent: { key: string; body: string | null }[] = []
    await queue.flush(async (action) => {
      const blob = action.kind === 'attachment' ? await blobs.get(action.key) : null
      sent.push({ key: action.key, body: blob ? await blob.text() : null })
      return { type: 'done' }
    })
    expect(sent).toEqual([
      { key: 's', body: null },
      { key: 'p1', body: 'one' },
      { key: 'p2', body: 'two' },
      { key: 'sig', body: 'png' },
      { key: 'c', body: null },
    ])
    expect(queue.getState().actions).toEqual([])
    expect(blobs.blobs.size).toBe(0)
  })

  it('keeps the bytes and the key while the photo must wait, and replays it with the same key', async () => {
    const { storage, blobs, queue } = setUp()
    await queue.enqueueAttachment(photo('p1'), bytes('one'))
    const keys: string[] = []
    await queue.flush(async (action) => {
      keys.push(action.key)
      return { type: 'retry', reason: 'offline' }
    })
    expect(blobs.blobs.has('p1')).toBe(true)

    // The app reopened: the same queue read back from storage, the same bytes.
    const reopened = new OfflineQueue(storage, 'user-1', at, blobs)
    await reopened.flush(async (action) => {
      keys.push(action.key)
      return { type: 'done' }
    })
    expect(keys).toEqual(['p1', 'p1'])
    expect(blobs.blobs.size).toBe(0)
  })

  it('drops the bytes of a refused photo and says what was lost', async () => {
    const { blobs, queue } = setUp()
    await queue.enqueueAttachment(photo('p1'), bytes('one'))
    await queue.enqueueAttachment(photo('p2'), bytes('two'))
    await queue.flush(
      async (
        action,
      ): Promise<{ type: 'done' } | { type: 'refused'; status: number; code: string; message: string }> =>
        action.key === 'p1'
          ? { type: 'refused', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Not a photo' }
          : { type: 'done' },
    )
    expect(blobs.blobs.size).toBe(0)
    const [refusal] = queue.getState().refusals
    expect(refusal).toMatchObject({ key: 'p1', kind: 'attachment', attachmentKind: 'PHOTO', status: 415 })
    expect(lostActionHeadline(refusal as NonNullable<typeof refusal>)).toBe('Your photo was not recorded')
  })

  it('keeps a photo queued while another is being sent', async () => {
    const { queue } = setUp()
    await queue.enqueueAttachment(photo('p1'), bytes('one'))
    let queuedDuring: QueuedAction | null = null
    await queue.flush(async (action) => {
      if (action.key === 'p1') queuedDuring = await queue.enqueueAttachment(photo('p2'), bytes('two'))
      return action.key === 'p1' ? { type: 'done' } : { type: 'retry', reason: 'offline' }
    })
    expect(queuedDuring).not.toBeNull()
    expect(queue.getState().actions.map((action) => action.key)).toEqual(['p2'])
  })
})

describe('fitWithin', () => {
  it('caps the long side at 2048 px and keeps the proportions; never enlarges', () => {
    expect(fitWithin(4032, 3024)).toEqual({ width: 2048, height: 1536 })
    expect(fitWithin(3024, 4032)).toEqual({ width: 1536, height: 2048 })
    expect(fitWithin(800, 600)).toEqual({ width: 800, height: 600 })
  })
})

describe('the completion checklist with pictures waiting on the phone', () => {
  const completion: Completion = {
    requires: { signature: true, photos: 2, notes: false },
    sources: [],
    has: { signatures: 0, photos: 1, notes: null, forms: [] },
    missing: [],
    notesWrittenAt: null,
  }

  it('counts queued photos and a queued signature as there, saying they wait to be sent', () => {
    expect(checklistItems(completion, '', { photos: 1, signatures: 1 })).toEqual([
      { label: "Customer's signature", done: true, detail: 'waiting to send' },
      { label: '2 photos', done: true, detail: '2 of 2, 1 waiting to send' },
    ])
  })

  it('still asks for what neither the server nor the phone has', () => {
    expect(checklistItems(completion, '')).toEqual([
      { label: "Customer's signature", done: false },
      { label: '2 photos', done: false, detail: '1 of 2' },
    ])
  })
})
