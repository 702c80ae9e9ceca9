import { type CursorPosition, decodeCursor, encodeCursor } from './cursor.js'
import { validationError } from './errors.js'
import type { CursorPagination, Pagination } from './schemas.js'

export interface PageRequest {
  page: number
  limit: number
}

export function offsetOf({ page, limit }: PageRequest): number {
  return (page - 1) * limit
}

export function paginationOf({ page, limit }: PageRequest, total: number): Pagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) }
}

export interface KeysetRequest extends PageRequest {
  cursor?: string
}

/** Where a page starts: after a cursor's row, or at an offset. `page` cannot be combined with `cursor`. */
export function startOf(query: KeysetRequest): { after?: CursorPosition; offset: number } {
  if (query.cursor === undefined) return { offset: offsetOf(query) }
  if (query.page !== 1) throw validationError('/query/page', 'cannot be combined with cursor')
  const { at, id } = decodeCursor(query.cursor)
  return { after: { createdAt: at, id }, offset: 0 }
}

/**
 * The pagination of a page fetched with one row more than `limit` (that row only tells whether
 * another page follows); returns the rows to show with it.
 */
export function keysetPageOf<T extends { created_at: string; id: string }>(
  query: KeysetRequest,
  fetched: T[],
  total: number,
): { rows: T[]; pagination: CursorPagination } {
  const rows = fetched.slice(0, query.limit)
  const last = rows.at(-1)
  return {
    rows,
    pagination: {
      page: query.cursor === undefined ? query.page : null,
      limit: query.limit,
      total,
      totalPages: Math.ceil(total / query.limit),
      nextCursor:
        fetched.length > query.limit && last ? encodeCursor({ at: last.created_at, id: last.id }) : null,
    },
  }
}
