// Walks a whole list for a `for await` loop: one page at a time, fetched when the loop needs it.
// Follows `pagination.nextCursor` when the list answers one (keyset paging: no row skipped or
// repeated when rows are added meanwhile, the same cost at any depth), else asks for `page` + 1 up
// to `totalPages`.

/**
 * What list answers' `pagination` holds: `nextCursor` on the lists that page by cursor (the event
 * feed pages only by cursor and has no totals).
 */
export interface PaginationInfo {
  page?: number | null
  limit: number
  total?: number
  totalPages?: number
  nextCursor?: string | null
}

export interface PageQuery {
  page?: number
  limit?: number
  cursor?: string
}

/**
 * The items of every page of a list. `fetchPage` gets the caller's filters plus `limit` and either
 * `page` or `cursor`; `itemsKey` names the array in the answer (`jobs`); `pageSize` is the `limit`
 * used when the caller set none (the largest the API allows, so a walk takes as few requests as
 * possible).
 */
export async function* paginate<Q extends PageQuery, K extends string, Item>(
  fetchPage: (query: Q) => Promise<{ [key in K]: Item[] } & { pagination: PaginationInfo }>,
  query: Omit<Q, 'page'>,
  itemsKey: K,
  pageSize: number | undefined,
): AsyncGenerator<Item, void, undefined> {
  let next = { ...query } as Q
  if (next.limit === undefined && pageSize !== undefined) next.limit = pageSize
  let page = 1
  for (;;) {
    const answer = await fetchPage(next)
    const items = answer[itemsKey]
    yield* items
    if (items.length === 0) return
    const { nextCursor, totalPages } = answer.pagination
    if (nextCursor !== undefined) {
      if (nextCursor === null) return
      next = { ...next, cursor: nextCursor }
      delete next.page
    } else {
      page++
      if (totalPages === undefined || page > totalPages) return
      next = { ...next, page }
    }
  }
}
