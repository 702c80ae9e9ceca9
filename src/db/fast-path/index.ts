// The database fast path: the one entry point for code that runs a statement past Kysely's query
// building, compiling and executor (see docs/architecture.md, "The fast path").
//
// Use it only for the statements a hot route runs on every request (the job read and list, job
// writes and their outbox event, the dispatcher's claim); everything else uses Kysely as usual.
// A repository chooses what it runs:
//   fastPath.read(db, shape, build, values)            rows of a statement built once per shape
//   fastPath.write(db, shape, build, values)           a write, done before it resolves
//   fastPath.deferrableWrite(db, shape, build, values) a write nobody reads the result of: on
//       PostgreSQL, in a transaction, it travels with the next statement or the commit, which
//       fail if it failed (pg-client.ts)
//   fastPath.readSql / writeSql(db, statement, params)  a statement written by hand per dialect
// `shape` names everything that changes the SQL (under test, a shape that misses a branch throws:
// prepare.ts); `build` builds the query with param() placeholders; `values` binds them by name.
//
// The database factory wires it: attachPool / attachSqliteHandle and preparedClient (database.ts).
import type { Executor } from '../types.js'
import type { HotQuery } from './hot-query.js'
import { type BuildQuery, bind, prepare } from './prepare.js'
import { runStatement } from './run.js'

export { attachPool, attachSqliteHandle, shareConnections } from './connections.js'
export type { HotQuery } from './hot-query.js'
export { preparedClient } from './pg-client.js'
export { idList, inIdList, param, presentFilters } from './placeholders.js'
export { type BuildQuery, StaleStatementError } from './prepare.js'

export const fastPath = {
  read<R>(db: Executor, shape: string, build: BuildQuery, values: Record<string, unknown>): Promise<R[]> {
    const statement = prepare(db, shape, build, false)
    return runStatement<R>(db, statement.query, bind(statement, values))
  },

  async write(
    db: Executor,
    shape: string,
    build: BuildQuery,
    values: Record<string, unknown>,
  ): Promise<void> {
    const statement = prepare(db, shape, build, false)
    await runStatement(db, statement.query, bind(statement, values))
  },

  async deferrableWrite(
    db: Executor,
    shape: string,
    build: BuildQuery,
    values: Record<string, unknown>,
  ): Promise<void> {
    const statement = prepare(db, shape, build, true)
    await runStatement(db, statement.query, bind(statement, values))
  },

  readSql<R>(db: Executor, statement: HotQuery, params: readonly unknown[]): Promise<R[]> {
    return runStatement<R>(db, statement, params)
  },

  async writeSql(db: Executor, statement: HotQuery, params: readonly unknown[]): Promise<void> {
    await runStatement(db, statement, params)
  },
}
