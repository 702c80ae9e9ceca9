import type { Dialect } from '../src/db/database.js'

/** Dialects under test: TEST_DIALECTS=sqlite,postgres (the default) or a subset. */
export function testDialects(): Dialect[] {
  const value = process.env.TEST_DIALECTS ?? 'sqlite,postgres'
  const dialects = value
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
  for (const d of dialects) {
    if (d !== 'sqlite' && d !== 'postgres') throw new Error(`TEST_DIALECTS: unknown dialect "${d}"`)
  }
  return dialects as Dialect[]
}

export function adminPostgresUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
}

export function postgresUrlFor(database: string): string {
  const url = new URL(adminPostgresUrl())
  url.pathname = `/${database}`
  return url.toString()
}
