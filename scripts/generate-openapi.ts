// Writes the OpenAPI document generated from the route schemas to openapi/; with --check, fails
// when the committed document differs from what the code generates (CI runs this).
import { readFile, writeFile } from 'node:fs/promises'
import { type App, buildApp } from '../src/app.js'
import { createDatabase } from '../src/db/database.js'

const DOCUMENTS = {
  'openapi/public-v1.json': (app: App) => app.swagger(),
  'openapi/admin-v1.json': (app: App) => app.adminSwagger(),
}

async function generate(): Promise<Record<string, string>> {
  const database = createDatabase(':memory:')
  const app = await buildApp({
    db: database.db,
    dialect: database.dialect,
    config: { authCacheTtlMs: 0, defaultRateLimitPerMinute: 100, bodyLimitBytes: 1024 * 1024 },
  })
  await app.ready()
  const documents = Object.fromEntries(
    Object.entries(DOCUMENTS).map(([path, build]) => [path, `${JSON.stringify(build(app), null, 2)}\n`]),
  )
  await app.close()
  await database.destroy()
  return documents
}

const generated = await generate()
const root = new URL('../', import.meta.url)
if (process.argv.includes('--check')) {
  const stale: string[] = []
  for (const [path, document] of Object.entries(generated)) {
    const committed = await readFile(new URL(path, root), 'utf8').catch(() => '')
    if (committed !== document) stale.push(path)
  }
  if (stale.length > 0) {
    process.stderr.write(
      `${stale.join(', ')} out of date with the route schemas. Run \`npm run openapi\` and commit the result.\n`,
    )
    process.exit(1)
  }
  process.stdout.write(`${Object.keys(generated).join(', ')} match the code\n`)
} else {
  for (const [path, document] of Object.entries(generated)) {
    await writeFile(new URL(path, root), document)
    process.stdout.write(`wrote ${path}\n`)
  }
}
