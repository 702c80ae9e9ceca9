import { randomBytes } from 'node:crypto'

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Opaque to clients, URL-safe,
 * and roughly time-ordered, so new rows append to the right of every index.
 */
export function newId(now = Date.now()): string {
  const bytes = randomBytes(16)
  bytes.writeUIntBE(now, 0, 6)
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export function nowIso(): string {
  return new Date().toISOString()
}

/** The ids of some rows, as a set: for checking which requested ids exist. */
export const idsOf = (rows: readonly { id: string }[]): Set<string> => new Set(rows.map((row) => row.id))
