// Where attachment content lives: one interface, two implementations. The database by default
// (db-store.ts: 256 KiB chunks in attachment_chunks, so SQLite stays one file and PostgreSQL instances
// share it), any S3-compatible store when ATTACHMENT_STORE=s3://… is set (s3-store.ts, whose SDK is
// imported only then). Content goes in and out as streams: no store ever holds a whole file.
import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'

/** Bytes as a store takes them: a stream, a generator, or a few buffers already in memory. */
export type Content = AsyncIterable<Uint8Array> | Iterable<Uint8Array>

export interface StoredContent {
  size: number
  /** Lower-case hex SHA-256 of the bytes stored. */
  sha256: string
}

export interface AttachmentStore {
  /**
   * Stores `content` under `key` as it arrives. If `content` fails (a size cap passed, the client went
   * away), whatever was written is removed and the error is thrown: nothing is left stored.
   */
  put(key: string, content: Content): Promise<StoredContent>
  /** The content under `key`, read as it is sent. */
  get(key: string): Promise<Readable>
  /** Removes the content under `key`; nothing there is not an error. */
  delete(key: string): Promise<void>
}

/** The size and SHA-256 of content, counted as it passes through a store. */
export class ContentMeter {
  private readonly hash = createHash('sha256')
  size = 0

  add(bytes: Uint8Array): void {
    this.hash.update(bytes)
    this.size += bytes.length
  }

  result(): StoredContent {
    return { size: this.size, sha256: this.hash.digest('hex') }
  }
}

/**
 * Groups the chunks of `content` into buffers of `size` bytes (the last one shorter), so a store
 * writes a few large pieces rather than the many small ones a socket delivers.
 */
export async function* regrouped(content: Content, size: number): AsyncGenerator<Buffer> {
  let parts: Uint8Array[] = []
  let held = 0
  for await (const chunk of content) {
    let rest = chunk
    while (held + rest.length >= size) {
      const take = size - held
      parts.push(rest.subarray(0, take))
      yield Buffer.concat(parts, size)
      parts = []
      held = 0
      rest = rest.subarray(take)
    }
    if (rest.length > 0) {
      parts.push(rest)
      held += rest.length
    }
  }
  if (held > 0) yield Buffer.concat(parts, held)
}
