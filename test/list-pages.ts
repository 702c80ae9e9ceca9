// What every paginated list of the API promises, checked the same way for each: newest first
// (createdAt descending, then id descending), `limit` rows a page with exact totals, every row once
// across the pages, an empty page past the end, and 400 VALIDATION_ERROR for a bad page or limit.
import { expect } from 'vitest'
import type { ApiResponse } from './helpers.js'

export interface ListUnderTest {
  /** GETs the list with a query string: '' or '?limit=2&page=1'. */
  get(query: string): Promise<ApiResponse>
  /** The rows are in `data[property]`. */
  property: string
}

/** A list reached through one of the test clients (`client`, `adminClient`). */
export function listAt(
  api: { get(url: string): Promise<ApiResponse> },
  path: string,
  property: string,
): ListUnderTest {
  return { get: (query) => api.get(`${path}${query}`), property }
}

export async function listedIds(list: ListUnderTest, query: string): Promise<string[]> {
  const res = await list.get(query)
  expect(res.status, `${list.property}${query}`).toBe(200)
  return res.body.data[list.property].map((row: { id: string }) => row.id)
}

/**
 * `newestFirst`: the ids of every row of the organisation, newest first. Checks the default page,
 * then walks the whole list `pageSize` rows at a time.
 */
export async function expectPagesNewestFirst(
  list: ListUnderTest,
  newestFirst: readonly string[],
  { defaultLimit, pageSize }: { defaultLimit: number; pageSize: number },
): Promise<void> {
  const total = newestFirst.length
  const first = await list.get('')
  expect(first.status).toBe(200)
  expect(first.body.data.pagination).toEqual({
    page: 1,
    limit: defaultLimit,
    total,
    totalPages: Math.ceil(total / defaultLimit),
  })
  expect(first.body.data[list.property].map((row: { id: string }) => row.id)).toEqual(
    newestFirst.slice(0, defaultLimit),
  )
  const totalPages = Math.ceil(total / pageSize)
  const paged: string[] = []
  for (let page = 1; page <= totalPages; page++) {
    const res = await list.get(`?limit=${pageSize}&page=${page}`)
    expect(res.body.data.pagination).toEqual({ page, limit: pageSize, total, totalPages })
    paged.push(...res.body.data[list.property].map((row: { id: string }) => row.id))
  }
  expect(paged).toEqual(newestFirst)
  expect(await listedIds(list, `?limit=${pageSize}&page=${totalPages + 1}`)).toEqual([])
}

/** Rows created at the same instant (`ids`) come in id order, descending, across pages of 2. */
export async function expectTiesBrokenById(list: ListUnderTest, ids: readonly string[]): Promise<void> {
  const paged: string[] = []
  for (let page = 1; page <= Math.ceil(ids.length / 2); page++)
    paged.push(...(await listedIds(list, `?limit=2&page=${page}`)))
  expect(paged).toEqual([...ids].sort().reverse())
}

/** A page or limit no list accepts. */
export const BAD_PAGE_QUERIES = ['limit=0', 'limit=101', 'limit=abc', 'page=0', 'page=-1', 'page=1.5']

export async function expectQueryRefused(list: ListUnderTest, query: string): Promise<void> {
  const res = await list.get(`?${query}`)
  expect(res.status, query).toBe(400)
  expect(res.body.code).toBe('VALIDATION_ERROR')
  const name = query.split('=')[0]
  expect(res.body.details, query).toContainEqual(expect.objectContaining({ path: `/query/${name}` }))
}
