// Placeholders for statements the fast path builds once: every value is a param() when the query is
// built, and the real values are bound by name each time it runs.
import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { isPostgres } from '../dialect.js'
import type { Executor } from '../types.js'

export const PARAM_PREFIX = '\u0000param:'

/** A named placeholder: Kysely carries it into the compiled parameters, where prepare.ts finds it. */
export function param<T>(name: string): T {
  return `${PARAM_PREFIX}${name}` as T
}

/**
 * `column IN (…ids)` with one SQL text for any number of ids: SQLite reads them from a JSON array,
 * PostgreSQL from one text[] parameter. Pass `idList(db, ids)` as the value.
 */
export function inIdList(db: Executor, column: string, name: string): RawBuilder<SqlBool> {
  return isPostgres(db)
    ? sql<SqlBool>`${sql.ref(column)} = any(cast(${param(name)} as text[]))`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${param(name)}))`
}

export function idList(db: Executor, ids: readonly string[]): unknown {
  return isPostgres(db) ? ids : JSON.stringify(ids)
}

/** The filters that are set, by name: the part of a statement's shape that changes the SQL. */
export function presentFilters<F extends object>(filters: F): (keyof F & string)[] {
  return (Object.keys(filters) as (keyof F & string)[]).filter((name) => filters[name] !== undefined)
}
