// Opaque keyset cursors: a cursor names the last row of a page, and the next page starts strictly
// after it — the same cost at any depth, unlike OFFSET. Two kinds, never interchangeable: `list`
// cursors walk a list in creation order (createdAt DESC, id DESC), `changes` cursors walk it in change
// order (updatedAt ASC, id ASC, with `updatedSince`).
import { isIssuedId } from '../db/ids.js'
import { isStoredInstant } from '../db/values.js'
import { validationError } from './errors.js'

export interface CursorPosition {
  createdAt: string
  id: string
}

export type CursorKind = 'list' | 'changes' | 'events'

const PREFIX: Record<CursorKind, string> = { list: 'v1', changes: 'c1', events: 'e1' }
// A cursor we issue is 86 characters (base64url of 2 + 1 + 24 + 1 + 36 bytes); anything much longer
// is not decoded at all.
const MAX_CURSOR_LENGTH = 128

/** base64url of `<kind prefix>|<instant>|<id>`: opaque to clients, versioned for us. */
export function encodeCursor(position: { at: string; id: string }, kind: CursorKind = 'list'): string {
  return Buffer.from(`${PREFIX[kind]}|${position.at}|${position.id}`, 'utf8').toString('base64url')
}

const notValid = () =>
  validationError('/query/cursor', 'is not valid: send nextCursor of a previous response unchanged')

/**
 * The position a cursor names, or 400 at /query/cursor when it is not one of ours of this kind. Every
 * part is checked, not only the shape: the instant must exist and be storable and the id must look
 * like one we issue, or PostgreSQL would fail on them (an invalid date, a NUL) with a 500. Cursors are
 * not signed: they carry only a position in the client's own list (docs/contract-decisions.md).
 */
export function decodeCursor(cursor: string, kind: CursorKind = 'list'): { at: string; id: string } {
  if (cursor.length > MAX_CURSOR_LENGTH) throw notValid()
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
  const [version, at, id] = parts
  if (parts.length !== 3 || at === undefined || id === undefined) throw notValid()
  if (version !== PREFIX[kind]) {
    const other = kind === 'list' ? 'changes' : 'list'
    if (kind !== 'events' && version === PREFIX[other]) {
      throw validationError(
        '/query/cursor',
        kind === 'list'
          ? 'was issued for a list read with updatedSince; send the same updatedSince with it'
          : 'was issued for a list read without updatedSince; start the walk again with updatedSince',
      )
    }
    throw notValid()
  }
  if (!isStoredInstant(at) || !isIssuedId(id)) throw notValid()
  return { at, id }
}
