// Writes the OpenAPI document generated from the route schemas to openapi/; with --check, fails
// when the committed document differs from what the code generates (CI runs this).
import { readFile, writeFile } from 'node:fs/promises'
import { buildApp } from '../src/app.js'
import { createDatabase } from '../src/db/database.js'

const TARGET = new URL('../openapi/public-v1.json', import.meta.url)

async function generate(): Promise<string> {
  const database = createDatabase(':memory:')
  const app = await buildApp({
    db: database.db,
    dialect: database.dialect,
    config: { authCacheTtlMs: 0, defaultRateLimitPerMinute: 100, bodyLimitBytes: 1024 * 1024 },
  })
  await app.ready()
  const document = `${JSON.stringify(app.swagger(), null, 2)}\n`
  await app.close()
  await database.destroy()
  return document
}

const generated = await generate()
if (process.argv.includes('--check')) {
  const committed = await readFile(TARGET, 'utf8').catch(() => '')
  if (committed !== generated) {
    process.stderr.write(
      'openapi/public-v1.json is out of date with the route schemas. Run `npm run openapi` and commit the result.\n',
    )
    process.exit(1)
  }
  process.stdout.write('openapi/public-v1.json matches the code\n')
} else {
  await writeFile(TARGET, generated)
  process.stdout.write(`wrote ${TARGET.pathname}\n`)
}
