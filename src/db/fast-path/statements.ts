// What the fast path remembers of its statements, for the whole process: the SQL of a statement
// depends only on its dialect and its shape, never on which database runs it, so every database
// (and every test's) shares it. Kept in this one object, not in scattered module variables.
import type { HotQuery } from './hot-query.js'

export interface PreparedStatement {
  query: HotQuery
  /** The param() names in the order of the compiled parameters. */
  order: string[]
}

/** "cached plan must not change result type" */
export const CACHED_PLAN_CHANGED = '0A000'

export const statements = {
  /** `${dialect}:${shape}` → the statement built and compiled once (prepare.ts). */
  prepared: new Map<string, PreparedStatement>(),
  /** PostgreSQL: the SQL text of every statement the fast path runs → its prepared-statement name. */
  namedTexts: new Map<string, string>(),
  /** PostgreSQL: the texts of deferrable writes, answered before they have run (pg-client.ts). */
  deferrableTexts: new Set<string>(),
  /**
   * Bumped when PostgreSQL refuses a prepared statement because a migration changed a table it reads
   * with `*` (CACHED_PLAN_CHANGED): every statement is then prepared afresh under a new name.
   */
  generation: 0,
}

export function statementName(name: string): string {
  return statements.generation === 0 ? name : `${name}_g${statements.generation}`
}
