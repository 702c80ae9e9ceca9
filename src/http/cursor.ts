// Opaque keyset cursors for lists ordered by (createdAt DESC, id DESC): a cursor names the last row
// of a page, and the next page starts strictly after it — the same cost at any depth, unlike OFFSET.
import { validationError } from './errors.js'

export interface CursorPosition {
  createdAt: string
  id: string
}

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/** base64url of `v1|<createdAt>|<id>`: opaque to clients, versioned for us. */
export function encodeCursor({ createdAt, id }: CursorPosition): string {
  return Buffer.from(`v1|${createdAt}|${id}`, 'utf8').toString('base64url')
}

/** The position a cursor names, or 400 at /query/cursor when it is not one of ours. */
export function decodeCursor(cursor: string): CursorPosition {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
  const [version, createdAt, id] = parts
  if (parts.length !== 3 || version !== 'v1' || !createdAt || !ISO_MS.test(createdAt) || !id) {
    throw validationError(
      '/query/cursor',
      'is not a cursor this API issued; use nextCursor from a list response',
    )
  }
  return { createdAt, id }
}
