// Recognising constraint violations on both engines. Services check uniqueness and references before
// writing; these catch what a concurrent transaction slipped in between the check and the write, so
// the client gets a 409 rather than a 500.

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
}

/** A unique index refused the write (better-sqlite3 `SQLITE_CONSTRAINT_UNIQUE`, PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error)
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505'
}

/**
 * The unique index `<table>_<column>_key` refused the write: PostgreSQL names the constraint,
 * SQLite names the column (`UNIQUE constraint failed: <table>.<column>`).
 */
export function isUniqueViolationOf(error: unknown, table: string, column: string): boolean {
  if (!isUniqueViolation(error)) return false
  const { constraint, message } = error as { constraint?: string; message?: string }
  return constraint === `${table}_${column}_key` || (message ?? '').includes(`${table}.${column}`)
}

/** A foreign key refused the write (better-sqlite3 `SQLITE_CONSTRAINT_FOREIGNKEY`, PostgreSQL 23503). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error)
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503'
}
