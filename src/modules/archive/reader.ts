// Reading an archive line by line: gunzip as the bytes arrive, split on newlines, parse each line.
// Every failure — not gzip, cut short, a line that is not a JSON record — becomes an ArchiveError
// naming the line, so an operator reads what is wrong rather than a stack trace.
import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { createGunzip } from 'node:zlib'
import { ArchiveError } from './format.js'

export interface ArchiveRecord {
  type: string
  data: Record<string, unknown>
}

/** A line may hold at most this many characters (content lines are about 64 KiB). */
const MAX_LINE_CHARS = 16 * 1024 * 1024

async function* linesOf(input: Readable): AsyncGenerator<string> {
  const gunzip = createGunzip()
  input.on('error', (error) => gunzip.destroy(error))
  input.pipe(gunzip)
  // A decoder, not chunk.toString(): a character's bytes may be split between two chunks.
  const decoder = new StringDecoder('utf8')
  let pending = ''
  try {
    for await (const chunk of gunzip) {
      pending += decoder.write(chunk as Buffer)
      let newline = pending.indexOf('\n')
      while (newline >= 0) {
        yield pending.slice(0, newline)
        pending = pending.slice(newline + 1)
        newline = pending.indexOf('\n')
      }
      if (pending.length > MAX_LINE_CHARS) throw new ArchiveError('a line of the archive is far too long')
    }
  } catch (error) {
    if (error instanceof ArchiveError) throw error
    const code = (error as { code?: string }).code
    throw new ArchiveError(
      code === 'Z_BUF_ERROR'
        ? 'The archive is truncated (its gzip stream ends early)'
        : `The archive is not a readable gzip file (${(error as Error).message})`,
    )
  }
  pending += decoder.end()
  if (pending !== '') yield pending
}

export class RecordReader {
  private readonly lines: AsyncGenerator<string>
  private lineNumber = 0

  constructor(input: Readable) {
    this.lines = linesOf(input)
  }

  /** An ArchiveError about the line read last. */
  error(message: string): ArchiveError {
    return new ArchiveError(`Line ${this.lineNumber} of the archive: ${message}`)
  }

  private async nextJson(): Promise<unknown> {
    const { value, done } = await this.lines.next()
    if (done) return undefined
    this.lineNumber++
    try {
      return JSON.parse(value)
    } catch {
      throw this.error('not a JSON line (the archive is damaged or truncated)')
    }
  }

  async header(): Promise<Record<string, unknown>> {
    const header = await this.nextJson()
    if (header === undefined) throw new ArchiveError('The archive is empty')
    if (header === null || typeof header !== 'object' || Array.isArray(header))
      throw this.error('the first line is not an archive header')
    return header as Record<string, unknown>
  }

  /** The next record; undefined at the end of the file. */
  async next(): Promise<ArchiveRecord | undefined> {
    const record = (await this.nextJson()) as Partial<ArchiveRecord> | null | undefined
    if (record === undefined) return undefined
    if (
      record === null ||
      typeof record.type !== 'string' ||
      record.data === null ||
      typeof record.data !== 'object' ||
      Array.isArray(record.data)
    )
      throw this.error('not a { type, data } record')
    return record as ArchiveRecord
  }
}
