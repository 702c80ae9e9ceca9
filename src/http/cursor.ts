// Opaque keyset cursors: a cursor names the last row of a page, and the next page starts strictly
// after it — the same cost at any depth, unlike OFFSET. Two kinds, never interchangeable: `list`
// cursors walk a list in creation order (createdAt DESC, id DESC), `changes` cursors walk it in change
// order (updatedAt ASC, id ASC, with `updatedSince`).
import { validationError } from './errors.js'

export interface CursorPosition {
  createdAt: string
  id: string
}

export type CursorKind = 'list' | 'changes' | 'events'

const PREFIX: Record<CursorKind, string> = { list: 'v1', changes: 'c1', events: 'e1' }
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/** base64url of `<kind prefix>|<instant>|<id>`: opaque to clients, versioned for us. */
export function encodeCursor(position: { at: string; id: string }, kind: CursorKind = 'list'): string {
  return Buffer.from(`${PREFIX[kind]}|${position.at}|${position.id}`, 'utf8').toString('base64url')
}

/** The position a cursor names, or 400 at /query/cursor when it is not one of ours of this kind. */
export function decodeCursor(cursor: string, kind: CursorKind = 'list'): { at: string; id: string } {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
  const [version, at, id] = parts
  if (parts.length !== 3 || !at || !ISO_MS.test(at) || !id) {
    throw validationError(
      '/query/cursor',
      'is not a cursor this API issued; use nextCursor from a list response',
    )
  }
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
    throw validationError(
      '/query/cursor',
      'is not a cursor this API issued; use nextCursor from a list response',
    )
  }
  return { at, id }
}
