// Once per test run: when PostgreSQL is among the dialects under test, migrate a uniquely named
// template database; every test file clones it (CREATE DATABASE … TEMPLATE), which is much faster
// than migrating. The template is dropped when the run ends.
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { createDatabase } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrator.js'
import { adminPostgresUrl, postgresUrlFor, testDialects } from './dialects.js'

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string
  }
}

export default async function setup(project: TestProject) {
  if (!testDialects().includes('postgres')) return
  const admin = new pg.Client({ connectionString: adminPostgresUrl() })
  try {
    await admin.connect()
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${adminPostgresUrl()} (${(error as Error).message}). ` +
        'Start it, point TEST_POSTGRES_URL at a server, or run only SQLite with TEST_DIALECTS=sqlite.',
    )
  }
  const template = `fs_test_tpl_${process.pid}_${Date.now().toString(36)}`
  await admin.query(`CREATE DATABASE ${template}`)
  const database = createDatabase(postgresUrlFor(template))
  try {
    await migrateToLatest(database.db, 'postgres')
  } finally {
    await database.destroy()
  }
  project.provide('pgTemplate', template)

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`)
    await admin.end()
  }
}
