// A filtered list of one table read through prepared statements (shifts, vehicles): a page in list
// order and the total of the same filters, each built once per shape — the filters present and what
// of the order changes the SQL — and run with the values bound by name (db/hot-query.ts, prepareOnce).
// The caller names the shape's prefix, builds the filtered query with param() placeholders, and
// gives the filters' values under the placeholders' names.
import type { SelectQueryBuilder } from 'kysely'
import { prepareOnce } from '../db/hot-query.js'
import type { Executor } from '../db/types.js'
import {
  changedWithin,
  inListOrder,
  LIST_ORDER_PARAMS,
  type ListOrder,
  listOrderShape,
  listOrderValues,
} from '../http/list-order.js'

export interface PreparedList {
  /** The table the order reads (its created_at, updated_at and id). */
  table: string
  /** Names what changes the SQL besides the order: `<table>.list:<filters present>` and the like. */
  shape: string
  /** The filters' values, under their placeholders' names (the organisation's id included). */
  values: Record<string, unknown>
}

/** One page of the list in `order`; `build` gives the filtered rows, with their joins, unordered. */
export function readListPage<Row>(
  db: Executor,
  list: PreparedList,
  order: ListOrder,
  limit: number,
  // biome-ignore lint/suspicious/noExplicitAny: a select over any table of the schema
  build: () => SelectQueryBuilder<any, any, any>,
): Promise<Row[]> {
  return prepareOnce(db, `${list.shape}:${listOrderShape(order)}`, () =>
    inListOrder(build(), list.table, order, LIST_ORDER_PARAMS),
  ).run<Row>({ ...list.values, ...listOrderValues(order, limit) })
}

/**
 * How many rows the list holds, within the change window when `order` reads by change; `build`
 * counts the filtered rows as `total`.
 */
export async function countListed(
  db: Executor,
  list: PreparedList,
  order: ListOrder | undefined,
  // biome-ignore lint/suspicious/noExplicitAny: a count over any table of the schema
  build: () => SelectQueryBuilder<any, any, { total: number }>,
): Promise<number> {
  const [row] = await prepareOnce(db, `${list.shape}:${order?.by ?? 'created'}`, () =>
    build().$if(order?.by === 'updated', (q) =>
      q.where(changedWithin(list.table, order as ListOrder, LIST_ORDER_PARAMS)),
    ),
  ).run<{ total: number | string }>({ ...list.values, ...(order ? listOrderValues(order, 0) : {}) })
  return Number(row?.total ?? 0)
}
