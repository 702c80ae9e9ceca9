import { randomFillSync } from 'node:crypto'

const RANDOM_POOL_IDS = 256
const pool = Buffer.alloc(16 * RANDOM_POOL_IDS)
let poolOffset = pool.length

let lastMs = 0
let sequence = 0

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Opaque to clients, URL-safe,
 * and time-ordered, so new rows append to the right of every index. Ids minted now (no `at`) are
 * also strictly increasing within the process: the 12 bits after the time are a counter that starts
 * at a random value each millisecond (RFC 9562 §6.2, method 1), so rows written in the same
 * millisecond — a request's outbox events, jobs created back to back — keep their order by id.
 */
export function newId(at?: number): string {
  let ms = at ?? 0
  let counter = -1
  if (at === undefined) {
    const now = Date.now()
    if (now > lastMs) {
      lastMs = now
      sequence = Math.floor(Math.random() * 0x800) // leaves at least 2048 ids in the millisecond
    } else if (++sequence > 0xfff) {
      lastMs += 1 // more than 2048 in one millisecond: borrow the next one, as the RFC allows
      sequence = 0
    }
    ms = lastMs
    counter = sequence
  }
  if (poolOffset === pool.length) {
    randomFillSync(pool)
    poolOffset = 0
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16))
  poolOffset += 16
  bytes.writeUIntBE(ms, 0, 6)
  if (counter >= 0) {
    bytes[6] = 0x70 | (counter >> 8)
    bytes[7] = counter & 0xff
  } else {
    bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70
  }
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

// Every id this service has issued, for rows of any kind and from any version, is a UUID as newId
// writes it (the first versions too, and the benchmark's dataset): lowercase hex, four dashes. Fixed
// counts of one character class each: the match cannot backtrack.
const ISSUED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Whether `text` has the shape of an id we issue (it may still name nothing). */
export const isIssuedId = (text: string): boolean => text.length === 36 && ISSUED_ID.test(text)

export function nowIso(): string {
  return new Date().toISOString()
}

/** The ids of some rows, as a set: for checking which requested ids exist. */
export const idsOf = (rows: readonly { id: string }[]): Set<string> => new Set(rows.map((row) => row.id))
