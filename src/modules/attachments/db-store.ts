// The default AttachmentStore: content in the database, 256 KiB a row (attachment_chunks), written
// one chunk at a time as the upload arrives and read one chunk at a time as the answer is sent.
// Each chunk commits on its own: a slow phone never holds a transaction (on SQLite, the only
// connection) for the length of its upload. A failed upload deletes the chunks it wrote.
import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import * as repository from './repository.js'
import { type AttachmentStore, type Content, ContentMeter, regrouped, type StoredContent } from './store.js'

export const DB_CHUNK_BYTES = 256 * 1024

export class DatabaseAttachmentStore implements AttachmentStore {
  /** `db`: the database itself, never a request's view (content is read after the handler returns). */
  constructor(private readonly db: Kysely<Database>) {}

  async put(key: string, content: Content): Promise<StoredContent> {
    const meter = new ContentMeter()
    let seq = 0
    try {
      for await (const chunk of regrouped(content, DB_CHUNK_BYTES)) {
        meter.add(chunk)
        await repository.insertChunk(this.db, key, seq, chunk)
        seq++
      }
    } catch (error) {
      await repository.deleteChunks(this.db, key)
      throw error
    }
    return meter.result()
  }

  async get(key: string): Promise<Readable> {
    const db = this.db
    async function* chunks() {
      for (let seq = 0; ; seq++) {
        const data = await repository.findChunk(db, key, seq)
        if (!data) return
        yield Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      }
    }
    return Readable.from(chunks(), { objectMode: false })
  }

  async delete(key: string): Promise<void> {
    await repository.deleteChunks(this.db, key)
  }
}
