// Where the photos and signatures waiting in the offline queue keep their bytes: IndexedDB, keyed by
// the action's Idempotency-Key. Not localStorage: a few photos would fill its 5 MB, and it takes only
// strings. Behind a small interface so the queue's unit tests use an in-memory one.

export interface BlobStore {
  put(key: string, blob: Blob): Promise<void>
  /** The blob kept under the key; null when there is none (never kept, or already deleted). */
  get(key: string): Promise<Blob | null>
  delete(key: string): Promise<void>
}

const DATABASE = 'fieldservice-my-blobs'
const STORE = 'blobs'

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}

/** The phone's IndexedDB; one database per user, as the queue itself is per user. */
export class IndexedDbBlobStore implements BlobStore {
  private database: Promise<IDBDatabase> | null = null

  constructor(private readonly userId: string) {}

  private open(): Promise<IDBDatabase> {
    this.database ??= new Promise((resolve, reject) => {
      const opening = indexedDB.open(`${DATABASE}.${this.userId}`, 1)
      opening.onupgradeneeded = () => opening.result.createObjectStore(STORE)
      opening.onsuccess = () => resolve(opening.result)
      opening.onerror = () => {
        this.database = null
        reject(opening.error)
      }
    })
    return this.database
  }

  private async run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const database = await this.open()
    return request(act(database.transaction(STORE, mode).objectStore(STORE)))
  }

  async put(key: string, blob: Blob): Promise<void> {
    await this.run('readwrite', (store) => store.put(blob, key))
  }

  async get(key: string): Promise<Blob | null> {
    const found = await this.run('readonly', (store) => store.get(key))
    return found instanceof Blob ? found : null
  }

  async delete(key: string): Promise<void> {
    await this.run('readwrite', (store) => store.delete(key))
  }
}
