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

/**
 * Dialects the browser tests run on: BROWSER_TEST_DIALECTS (a subset of TEST_DIALECTS), else all of
 * TEST_DIALECTS. CI sets it to one database to stay within its time budget (the dashboard's pages read
 * through the same API whose own tests run on both); run both locally before resolving dashboard work.
 */
export function browserTestDialects(): Dialect[] {
  const all = testDialects()
  const value = process.env.BROWSER_TEST_DIALECTS
  if (value === undefined || value.trim() === '') return all
  const wanted = value.split(',').map((d) => d.trim())
  for (const d of wanted) {
    if (d !== 'sqlite' && d !== 'postgres') throw new Error(`BROWSER_TEST_DIALECTS: unknown dialect "${d}"`)
  }
  return all.filter((d) => wanted.includes(d))
}

export function adminPostgresUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
}

export function postgresUrlFor(database: string): string {
  const url = new URL(adminPostgresUrl())
  url.pathname = `/${database}`
  return url.toString()
}
