// Statements built with the query builder once per dialect and shape, then rerun as compiled: query
// building and compiling cost nothing on the hot path. The shape is the caller's name for whatever
// changes the SQL (which filters are present, which columns a PATCH sets). A shape that misses a
// branch would rerun the SQL of another branch; under test (VITEST, or FAST_PATH_VERIFY=1) every run
// builds the query again and refuses to run when its SQL differs from the cached one.
import type { CompiledQuery } from 'kysely'
import { isPostgres } from '../dialect.js'
import type { Executor } from '../types.js'
import { PARAM_PREFIX } from './placeholders.js'
import { type PreparedStatement, statements } from './statements.js'

export type BuildQuery = () => { compile(): CompiledQuery }

const VERIFY = process.env.VITEST !== undefined || process.env.FAST_PATH_VERIFY === '1'

/** Thrown (under test) when a statement's shape does not name everything that changes its SQL. */
export class StaleStatementError extends Error {
  constructor(shape: string, cached: string, built: string) {
    super(
      `fast path: statement "${shape}" now builds different SQL than the one cached under its shape; ` +
        `the shape must name every branch that changes the SQL.\ncached: ${cached}\nbuilt:  ${built}`,
    )
    this.name = 'StaleStatementError'
  }
}

function compile(shape: string, build: BuildQuery): { sql: string; order: string[] } {
  const compiled = build().compile()
  const order = compiled.parameters.map((value) => {
    if (typeof value !== 'string' || !value.startsWith(PARAM_PREFIX)) {
      throw new Error(
        `fast path: statement "${shape}": every value must be a param(), found ${String(value)}`,
      )
    }
    return value.slice(PARAM_PREFIX.length)
  })
  return { sql: compiled.sql, order }
}

function verify(shape: string, entry: PreparedStatement, build: BuildQuery): void {
  const built = compile(shape, build)
  const cached = entry.query.sqlite
  if (built.sql !== cached || built.order.join() !== entry.order.join()) {
    throw new StaleStatementError(shape, `${cached} [${entry.order}]`, `${built.sql} [${built.order}]`)
  }
}

/** The statement of `shape` for the dialect of `db`, built and compiled on its first use. */
export function prepare(
  db: Executor,
  shape: string,
  build: BuildQuery,
  deferrable: boolean,
): PreparedStatement {
  const postgres = isPostgres(db)
  const key = `${postgres ? 'postgres' : 'sqlite'}:${shape}`
  const known = statements.prepared.get(key)
  if (known) {
    if (VERIFY) verify(shape, known, build)
    return known
  }
  const { sql, order } = compile(shape, build)
  const name = `q${statements.prepared.size}_${shape.replace(/[^a-z0-9]+/gi, '_')}`.slice(0, 60)
  const entry = { query: { name, sqlite: sql, postgres: sql }, order }
  statements.prepared.set(key, entry)
  if (deferrable && postgres) statements.deferrableTexts.add(sql)
  return entry
}

/** The values in the order of the statement's parameters; one left out binds as NULL. */
export function bind(entry: PreparedStatement, values: Record<string, unknown>): unknown[] {
  return entry.order.map((name) => values[name] ?? null)
}
