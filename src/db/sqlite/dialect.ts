// Kysely's SQLite dialect with this service's driver: group commit (group-commit.ts) on one cached
// connection (statement-cache.ts), made durable by a WalSync (wal-sync.ts) when one is given.
import {
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'
import { GroupCommitSqliteDriver } from './group-commit.js'
import type { SqliteStatements } from './statement-cache.js'
import type { WalSync } from './wal-sync.js'

/** Kysely's SQLite dialect (compiler, adapter, introspector) with the group-commit driver. */
export class GroupCommitSqliteDialect implements Dialect {
  readonly driver: GroupCommitSqliteDriver

  constructor(database: SqliteStatements, walSync?: WalSync) {
    this.driver = new GroupCommitSqliteDriver(database, walSync)
  }

  createDriver(): Driver {
    return this.driver
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler()
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter()
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db)
  }
}
