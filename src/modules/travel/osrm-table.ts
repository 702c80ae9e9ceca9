// Road travel from an OSRM-compatible `/table` service (http://project-osrm.org/docs/v5.24.0/api/#table-service):
// `GET {base}/table/v1/driving/{lng,lat;…}?annotations=duration,distance[&sources=…&destinations=…]`
// answers `{ code: "Ok", durations: [[s]], distances: [[m]] }`, one row per source. osrm-routed
// refuses a table whose sources × destinations exceed `--max-table-size`² (TooBig), so a larger
// matrix is asked for in blocks of at most maxTable sources by maxTable destinations, each naming
// only the coordinates it needs, and put back together here. A pair the road network cannot join
// comes back null; it is reported as NaN for the caller to fill.

import { readLimitedText } from '../../http/read-limited.js'
import type { Coordinates } from '../../optimiser/model.js'

export interface OsrmTableOptions {
  /** Base URL, no trailing slash: `{base}/table/v1/driving/…` is asked. */
  url: string
  /** The server's `--max-table-size`: a block has at most this many sources and destinations. */
  maxTable: number
  /** Each request gets this long, connection to last byte. */
  timeoutMs: number
  /** Requests in flight at once. */
  concurrency?: number
  signal?: AbortSignal
}

/** Durations (s) and distances (m), row-major size × size; NaN where the network has no route. */
export interface OsrmTable {
  size: number
  duration: Float64Array
  distance: Float64Array
}

/** Why the service's answer cannot be used: the caller falls back to straight lines. */
export class OsrmUnavailable extends Error {}

const DEFAULT_CONCURRENCY = 4
/** A table of 100 × 100 cells is ~150 KB of JSON; anything far larger is not a table answer. */
const MAX_BODY_BYTES = 16 * 1024 * 1024

/** Coordinates as OSRM reads them (longitude first), to 6 places (~0.1 m). */
export const osrmCoordinate = (point: Coordinates) => `${point.lng.toFixed(6)},${point.lat.toFixed(6)}`

/** Rows (origins) × columns (destinations) of the matrix, by index into its points. */
export interface TablePart {
  sources: number[]
  destinations: number[]
}
type Block = TablePart

const chunked = (indices: number[], max: number) => {
  const chunks: number[][] = []
  for (let from = 0; from < indices.length; from += max) chunks.push(indices.slice(from, from + max))
  return chunks
}

/**
 * The blocks covering a part, none larger than max × max. Where a part's sources are its
 * destinations (the whole matrix), the diagonal blocks are the same array twice: asked for without
 * index lists.
 */
export function tableBlocks(part: TablePart, max: number): Block[] {
  const rows = chunked(part.sources, max)
  const columns = part.destinations === part.sources ? rows : chunked(part.destinations, max)
  return rows.flatMap((sources) => columns.map((destinations) => ({ sources, destinations })))
}

/** Every cell of the matrix over `points`. */
export const wholeTable = (size: number): TablePart => {
  const all = Array.from({ length: size }, (_, i) => i)
  return { sources: all, destinations: all }
}

/**
 * The cells of `parts` (default: all) of the matrix over `points`; cells outside them are 0, for
 * the caller to fill from what it already knows.
 */
export async function fetchOsrmTable(
  points: Coordinates[],
  options: OsrmTableOptions,
  parts: TablePart[] = [wholeTable(points.length)],
): Promise<OsrmTable> {
  const size = points.length
  const duration = new Float64Array(size * size)
  const distance = new Float64Array(size * size)
  const blocks = parts.flatMap((part) => tableBlocks(part, Math.max(1, options.maxTable)))
  // One failed block fails the table: the others are stopped rather than waited for.
  const stop = new AbortController()
  const signal = options.signal ? AbortSignal.any([stop.signal, options.signal]) : stop.signal
  let next = 0
  const worker = async () => {
    while (next < blocks.length) {
      const block = blocks[next++]!
      const answer = await requestBlock(points, block, { ...options, signal })
      block.sources.forEach((from, row) => {
        block.destinations.forEach((to, column) => {
          duration[from * size + to] = answer.durations[row]![column] ?? Number.NaN
          distance[from * size + to] = answer.distances[row]![column] ?? Number.NaN
        })
      })
    }
  }
  // The first failure is the reason; the others only followed it.
  let first: unknown
  const workers = Array.from(
    { length: Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, blocks.length) },
    () =>
      worker().catch((error: unknown) => {
        first ??= error
        stop.abort()
      }),
  )
  await Promise.all(workers)
  if (first !== undefined) throw first instanceof OsrmUnavailable ? first : new OsrmUnavailable(String(first))
  return { size, duration, distance }
}

/** The block's URL: the coordinates it names (sources, then destinations not among them) and their indices. */
export function blockUrl(points: Coordinates[], block: Block, base: string): string {
  const coordinates = [...block.sources]
  const position = new Map(block.sources.map((point, i) => [point, i]))
  for (const point of block.destinations) {
    if (!position.has(point)) {
      position.set(point, coordinates.length)
      coordinates.push(point)
    }
  }
  const path = coordinates.map((point) => osrmCoordinate(points[point]!)).join(';')
  const everything = block.sources === block.destinations
  const query = everything
    ? ''
    : `&sources=${block.sources.map((_, i) => i).join(';')}` +
      `&destinations=${block.destinations.map((point) => position.get(point)).join(';')}`
  return `${base}/table/v1/driving/${path}?annotations=duration,distance${query}`
}

interface TableAnswer {
  durations: (number | null)[][]
  distances: (number | null)[][]
}

async function requestBlock(
  points: Coordinates[],
  block: Block,
  options: OsrmTableOptions & { signal: AbortSignal },
): Promise<TableAnswer> {
  const timeout = AbortSignal.timeout(options.timeoutMs)
  let body: unknown
  try {
    const response = await fetch(blockUrl(points, block, options.url), {
      signal: AbortSignal.any([timeout, options.signal]),
      headers: { accept: 'application/json', 'user-agent': 'fieldservice route planning' },
    })
    const text = await readLimitedText(
      response,
      MAX_BODY_BYTES,
      () => new OsrmUnavailable('answered more than a table'),
    )
    if (!response.ok) throw new OsrmUnavailable(`answered HTTP ${response.status}${osrmCode(text)}`)
    body = JSON.parse(text)
  } catch (error) {
    if (error instanceof OsrmUnavailable) throw error
    if (timeout.aborted) throw new OsrmUnavailable(`did not answer within ${options.timeoutMs / 1000} s`)
    if (options.signal.aborted) throw new OsrmUnavailable('was not waited for')
    if (error instanceof SyntaxError) throw new OsrmUnavailable('answered something that is not JSON')
    throw new OsrmUnavailable('cannot be reached')
  }
  return readTable(body, block.sources.length, block.destinations.length)
}

/** OSRM's own error code in a refusal's body (`{ code: "TooBig", message }`), when there is one. */
function osrmCode(text: string): string {
  try {
    const code = (JSON.parse(text) as { code?: unknown } | null)?.code
    return typeof code === 'string' ? ` (${code})` : ''
  } catch {
    return ''
  }
}

/** The answer's two tables, checked cell by cell: rows × columns of numbers or null. */
export function readTable(body: unknown, rows: number, columns: number): TableAnswer {
  const answer = (body ?? {}) as {
    code?: unknown
    message?: unknown
    durations?: unknown
    distances?: unknown
  }
  if (answer.code !== 'Ok') {
    const why = typeof answer.message === 'string' ? `: ${answer.message}` : ''
    throw new OsrmUnavailable(`answered code ${JSON.stringify(answer.code ?? null)}${why}`)
  }
  const isTable = (table: unknown): table is (number | null)[][] =>
    Array.isArray(table) &&
    table.length === rows &&
    table.every(
      (row) =>
        Array.isArray(row) &&
        row.length === columns &&
        row.every(
          (cell) => cell === null || (typeof cell === 'number' && Number.isFinite(cell) && cell >= 0),
        ),
    )
  if (!isTable(answer.durations) || !isTable(answer.distances)) {
    throw new OsrmUnavailable(`answered a table that is not ${rows} × ${columns} durations and distances`)
  }
  return { durations: answer.durations, distances: answer.distances }
}
