// The order a list page is read in, and where it starts.
//
// - By creation (every list's default): createdAt descending, then id descending; a page starts at an
//   offset (`page`) or strictly after a `cursor` row (keyset).
// - By change (`updatedSince`): the rows changed strictly after that instant, updatedAt ascending, then
//   id ascending, so a sync can walk everything that changed while writes continue: a row changed
//   during the walk moves behind the walk's position and comes once more, with its new updatedAt.
//   The rows of the last few seconds are held back (`settleMs`): a transaction takes its timestamp
//   before it commits, so a row stamped just before another might still be invisible when the other
//   is read. Holding them back until every transaction stamped earlier has committed means a client
//   that resumes from the last updatedAt it saw never skips one.
import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import { INSTANT_EXPECTED, toStoredInstant } from '../db/values.js'
import { type CursorPosition, decodeCursor, encodeCursor } from './cursor.js'
import { validationError } from './errors.js'
import { offsetOf, type PageRequest, paginationOf } from './pagination.js'
import type { ChangeFeedPagination } from './schemas.js'

export type ListOrder =
  | { by: 'created'; offset: number; after?: CursorPosition }
  | { by: 'updated'; since: string; until: string; offset: number; after?: CursorPosition }

export interface ListOrderQuery extends PageRequest {
  cursor?: string
  updatedSince?: string
}

/** Rows changed within this many milliseconds of now are left for the next read (see above). */
export const DEFAULT_CHANGE_SETTLE_MS = 5000

/** How a list request reads: by creation or by change, from an offset or after a cursor. */
export function listOrderOf(query: ListOrderQuery, settleMs: number, now = Date.now()): ListOrder {
  const by = query.updatedSince === undefined ? 'created' : 'updated'
  let after: CursorPosition | undefined
  if (query.cursor !== undefined) {
    if (query.page !== 1) throw validationError('/query/page', 'cannot be combined with cursor')
    const position = decodeCursor(query.cursor, by === 'updated' ? 'changes' : 'list')
    after = { createdAt: position.at, id: position.id }
  }
  const offset = after ? 0 : offsetOf(query)
  if (by === 'created') return { by, offset, after }
  const since = toStoredInstant(query.updatedSince as string)
  if (since === undefined) throw validationError('/query/updatedSince', INSTANT_EXPECTED)
  return { by, since, until: new Date(now - settleMs).toISOString(), offset, after }
}

/** What of the order changes a query's SQL: part of the shape of a statement built once. */
export function listOrderShape(order: ListOrder): string {
  return `${order.by}:${order.after ? 'after' : 'offset'}`
}

/** The order's values under the names listOrderParams uses. */
export function listOrderValues(order: ListOrder, limit: number): ListOrderValues {
  return {
    orderSince: order.by === 'updated' ? order.since : undefined,
    orderUntil: order.by === 'updated' ? order.until : undefined,
    orderAfterAt: order.after?.createdAt,
    orderAfterId: order.after?.id,
    orderLimit: limit,
    orderOffset: order.offset,
  }
}

const VALUE_NAMES = [
  'orderSince',
  'orderUntil',
  'orderAfterAt',
  'orderAfterId',
  'orderLimit',
  'orderOffset',
] as const

/** The order's values by name (listOrderValues), or placeholders for them (listOrderPlaceholders). */
export type ListOrderValues = Record<(typeof VALUE_NAMES)[number], unknown>

/**
 * A placeholder for every value, made by `placeholder` (the fast path's param()), for a query built
 * once and run with listOrderValues.
 */
export function listOrderPlaceholders(placeholder: (name: string) => unknown): ListOrderValues {
  return Object.fromEntries(VALUE_NAMES.map((name) => [name, placeholder(name)])) as ListOrderValues
}

/** Only the rows of `table` inside the change window (no cursor, no order): for the total. */
export function changedWithin(
  table: string,
  order: ListOrder,
  values: Partial<ListOrderValues>,
): Expression<SqlBool> {
  if (order.by !== 'updated') return sql<SqlBool>`1 = 1`
  const updatedAt = sql.ref(`${table}.updated_at`)
  return sql<SqlBool>`${updatedAt} > ${values.orderSince} and ${updatedAt} <= ${values.orderUntil}`
}

/**
 * Applies the order to a query over `table`: the change window, the keyset start, ORDER BY, LIMIT and
 * OFFSET. `values` are the real values (listOrderValues) or placeholders (listOrderPlaceholders).
 */
// biome-ignore lint/suspicious/noExplicitAny: works on a select over any table of the schema
export function inListOrder<Q extends SelectQueryBuilder<any, any, any>>(
  query: Q,
  table: string,
  order: ListOrder,
  values: ListOrderValues,
): Q {
  const column = order.by === 'updated' ? 'updated_at' : 'created_at'
  const at = sql.ref(`${table}.${column}`)
  const id = sql.ref(`${table}.id`)
  const direction = order.by === 'updated' ? 'asc' : 'desc'
  // biome-ignore lint/suspicious/noExplicitAny: the builder's own type is kept by the caller's Q
  let q: SelectQueryBuilder<any, any, any> = query
  if (order.by === 'updated') q = q.where(changedWithin(table, order, values))
  if (order.after) {
    q = q.where(
      order.by === 'updated'
        ? sql<SqlBool>`(${at}, ${id}) > (${values.orderAfterAt}, ${values.orderAfterId})`
        : sql<SqlBool>`(${at}, ${id}) < (${values.orderAfterAt}, ${values.orderAfterId})`,
    )
  }
  q = q
    .orderBy(at, direction)
    .orderBy(id, direction)
    .limit(values.orderLimit as number)
  if (!order.after) q = q.offset(values.orderOffset as number)
  return q as Q
}

/** The cursor naming a row, in the order it was read. */
export function cursorOf(
  order: ListOrder,
  row: { created_at: string; updated_at: string; id: string },
): string {
  return order.by === 'updated'
    ? encodeCursor({ at: row.updated_at, id: row.id }, 'changes')
    : encodeCursor({ at: row.created_at, id: row.id }, 'list')
}

/**
 * The pagination of a page fetched with one row more than `limit` (that row only tells whether
 * another page follows), and the rows to show. `page` is null when the request used a cursor.
 */
export function orderedPageOf<T extends { created_at: string; updated_at: string; id: string }>(
  query: ListOrderQuery,
  order: ListOrder,
  fetched: T[],
  total: number,
): {
  rows: T[]
  pagination: {
    page: number | null
    limit: number
    total: number
    totalPages: number
    nextCursor: string | null
  }
} {
  const rows = fetched.slice(0, query.limit)
  const last = rows.at(-1)
  return {
    rows,
    pagination: {
      page: order.after ? null : query.page,
      limit: query.limit,
      total,
      totalPages: Math.ceil(total / query.limit),
      nextCursor: fetched.length > query.limit && last ? cursorOf(order, last) : null,
    },
  }
}

/**
 * Reads one page in `order` and its total. A page read by creation from an offset keeps the plain
 * pagination (no nextCursor); a page read by change or after a cursor carries nextCursor (one more row
 * is fetched to know whether another page follows).
 */
export async function readPage<T extends { created_at: string; updated_at: string; id: string }>(
  query: ListOrderQuery,
  order: ListOrder,
  read: (limit: number) => Promise<T[]>,
  count: () => Promise<number>,
): Promise<{ rows: T[]; pagination: ChangeFeedPagination }> {
  const feed = order.by === 'updated' || order.after !== undefined
  const [fetched, total] = await Promise.all([read(feed ? query.limit + 1 : query.limit), count()])
  if (feed) return orderedPageOf(query, order, fetched, total)
  return { rows: fetched, pagination: paginationOf(query, total) }
}
