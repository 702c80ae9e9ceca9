// `fieldservice demo`: a realistic organisation to explore, two keys to explore it with, and the
// service itself, on the embedded SQLite database by default.
import type { Config } from '../config.js'
import { createDatabase } from '../db/database.js'
import { migrateToLatest } from '../db/migrator.js'
import { createApiKey } from '../modules/api-keys/service.js'
import { closeOnSignals, startServer } from '../server.js'
import { seedDemoOrganisation } from './demo-seed.js'

export async function runDemo(config: Config, options: { serve: boolean; json: boolean }): Promise<void> {
  const database = createDatabase(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous })
  let output: {
    organisationId: string
    created: boolean
    counts: Record<string, number>
    readWriteKey: string
    adminKey: string
  }
  try {
    await migrateToLatest(database.db, database.dialect)
    const seeded = await seedDemoOrganisation(database.db)
    const readWrite = await createApiKey(database.db, {
      organisationId: seeded.organisationId,
      name: 'demo read+write',
      scopes: ['read', 'write'],
      rateLimitPerMinute: 1000,
    })
    const admin = await createApiKey(database.db, {
      organisationId: seeded.organisationId,
      name: 'demo admin',
      scopes: ['admin'],
      rateLimitPerMinute: 1000,
    })
    output = {
      organisationId: seeded.organisationId,
      created: seeded.created,
      counts: seeded.counts,
      readWriteKey: readWrite.key,
      adminKey: admin.key,
    }
  } finally {
    await database.destroy()
  }

  const origin = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`
  const base = `${origin}/v1/public`
  const adminBase = `${origin}/v1/admin`
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...output, baseUrl: base }, null, 2)}\n`)
  } else {
    process.stdout.write(
      [
        '',
        `Demo organisation ${output.created ? 'created' : 'already present'}: ${output.organisationId}`,
        `  ${Object.entries(output.counts)
          .map(([table, count]) => `${count} ${table}`)
          .join(', ')}`,
        '',
        `  read+write key: ${output.readWriteKey}`,
        `  admin key:      ${output.adminKey}`,
        '',
        'Try it:',
        `  curl -s '${base}/jobs?limit=5' -H 'Authorization: Bearer ${output.readWriteKey}'`,
        `  curl -s '${base}/customers?search=street' -H 'Authorization: Bearer ${output.readWriteKey}'`,
        `  curl -s -X POST '${base}/jobs' -H 'Authorization: Bearer ${output.readWriteKey}' \\`,
        `       -H "Content-Type: application/json" -d '{"title":"Replace boiler valve","priority":"HIGH"}'`,
        '',
        `  curl -s '${adminBase}/organisation' -H 'Authorization: Bearer ${output.adminKey}'`,
        '',
        `Playgrounds: ${base}/docs (public API) and ${adminBase}/docs (admin API)`,
        '             Authorize → paste a key → Try it out',
        config.webhookAllowPrivate
          ? 'Webhooks:    automations may target http://127.0.0.1 here (WEBHOOK_ALLOW_PRIVATE=true); see README → Webhooks'
          : 'Webhooks:    https targets on the public internet only (WEBHOOK_ALLOW_PRIVATE=false)',
        '',
      ].join('\n'),
    )
  }
  if (options.serve) closeOnSignals(await startServer(config))
}
