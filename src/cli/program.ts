// The `fieldservice` command: serve, migrate, orgs, keys and demo. Every command takes --json.
import cluster from 'node:cluster'
import { Command, InvalidArgumentError, Option } from 'commander'
import { type Config, loadConfig } from '../config.js'
import { createDatabase, type DatabaseHandle } from '../db/database.js'
import { migrateToLatest } from '../db/migrator.js'
import type { PlanTier } from '../db/types.js'
import {
  createApiKey,
  findApiKeysByIdOrPrefix,
  isScope,
  listApiKeys,
  MAX_RATE_LIMIT_PER_MINUTE,
  revokeApiKey,
  type Scope,
} from '../modules/api-keys/service.js'
import {
  createOrganisation,
  findOrganisation,
  listOrganisations,
  PLAN_TIERS,
} from '../modules/organisations/service.js'
import { closeOnSignals, startServer } from '../server.js'
import { runClusterPrimary, runClusterWorker } from './cluster.js'
import { runDemo } from './demo.js'

export interface CliOutput {
  write(text: string): void
}

/** Opens the database, migrated first unless the action is the migration itself. */
async function withDatabase<T>(
  config: Config,
  action: (database: DatabaseHandle) => Promise<T>,
  { migrate = true } = {},
): Promise<T> {
  const database = createDatabase(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous })
  try {
    if (migrate) await migrateToLatest(database.db, database.dialect)
    return await action(database)
  } finally {
    await database.destroy()
  }
}

function parsePort(value: string): number {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('must be a port number')
  return port
}

function parseWorkers(value: string): number {
  const workers = Number(value)
  if (!Number.isInteger(workers) || workers < 1 || workers > 64)
    throw new InvalidArgumentError('must be a whole number from 1 to 64')
  return workers
}

function parseScopes(value: string): Scope[] {
  const scopes = value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => s.toLowerCase())
  const unknown = scopes.filter((s) => !isScope(s))
  if (scopes.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`scopes are a comma-separated list of read, write, admin`)
  }
  return scopes as Scope[]
}

function parseRateLimit(value: string): number {
  const limit = Number(value)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RATE_LIMIT_PER_MINUTE) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}`)
  }
  return limit
}

function parseDateTime(value: string): string {
  const time = Date.parse(value)
  if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new InvalidArgumentError('must be an ISO 8601 date or datetime, e.g. 2027-01-31T00:00:00Z')
  }
  return new Date(time).toISOString()
}

export function buildCli(config: Config = loadConfig(), output: CliOutput = process.stdout): Command {
  const print = (json: boolean, value: unknown, text: string) =>
    output.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`)
  const program = new Command('fieldservice')
    .description('Field-service management service: public REST API on SQLite or PostgreSQL')
    .showHelpAfterError()

  program
    .command('serve')
    .description('Start the HTTP service (applies pending migrations first)')
    .addOption(new Option('--port <port>', 'port to listen on').env('PORT').argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to bind').env('HOST'))
    .addOption(
      new Option(
        '--workers <count>',
        'worker processes sharing the port (PostgreSQL only: SQLite runs as one writer process)',
      )
        .argParser(parseWorkers)
        .default(1),
    )
    .addHelpText(
      'after',
      `
With --workers N (N > 1) a primary process applies migrations once, starts N workers that share the
port, restarts a worker that dies, serves /metrics for all of them on METRICS_PORT, and on SIGTERM
stops them gracefully. This needs PostgreSQL (DATABASE_URL=postgres://…): on SQLite, which has one
writer, the service runs as a single process and --workers above 1 is refused.`,
    )
    .action(async (options: { port?: number; host?: string; workers: number }) => {
      const serveConfig = { ...config, port: options.port ?? config.port, host: options.host ?? config.host }
      if (cluster.isWorker) return runClusterWorker(serveConfig)
      if (options.workers > 1) return runClusterPrimary(serveConfig, options.workers)
      closeOnSignals(await startServer(serveConfig))
    })

  program
    .command('migrate')
    .description('Apply pending database migrations')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }) => {
      const applied = await withDatabase(
        config,
        (database) => migrateToLatest(database.db, database.dialect),
        {
          migrate: false,
        },
      )
      print(
        !!options.json,
        { applied },
        applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date',
      )
    })

  const orgs = program.command('orgs').description('Manage organisations')
  orgs
    .command('create')
    .description('Create an organisation')
    .requiredOption('--name <name>', 'organisation name')
    .addOption(new Option('--plan <plan>', 'plan tier').choices(PLAN_TIERS).default('PRO'))
    .option('--json', 'machine-readable output')
    .action(async (options: { name: string; plan: PlanTier; json?: boolean }) => {
      const org = await withDatabase(config, ({ db }) =>
        createOrganisation(db, { name: options.name, plan: options.plan }),
      )
      print(!!options.json, org, `Created organisation ${org.name} (${org.plan}): ${org.id}`)
    })
  orgs
    .command('list')
    .description('List organisations')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }) => {
      const rows = await withDatabase(config, ({ db }) => listOrganisations(db))
      print(
        !!options.json,
        rows,
        rows.map((o) => `${o.id}  ${o.plan.padEnd(10)}  ${o.name}`).join('\n') || '(none)',
      )
    })

  const keys = program.command('keys').description('Manage API keys')
  keys
    .command('create')
    .description('Issue an API key; the full key is printed once')
    .requiredOption('--org <id>', 'organisation id')
    .option('--name <name>', 'what the key is for', 'API key')
    .option('--scopes <scopes>', 'comma-separated: read, write, admin', parseScopes, ['read'] as Scope[])
    .option('--rate-limit <perMinute>', 'requests per minute', parseRateLimit)
    .option('--expires-at <datetime>', 'ISO 8601 expiry', parseDateTime)
    .option('--json', 'machine-readable output')
    .action(
      async (options: {
        org: string
        name: string
        scopes: Scope[]
        rateLimit?: number
        expiresAt?: string
        json?: boolean
      }) => {
        const created = await withDatabase(config, async ({ db }) => {
          if (!(await findOrganisation(db, options.org)))
            throw new Error(`No organisation with id ${options.org}`)
          return createApiKey(db, {
            organisationId: options.org,
            name: options.name,
            scopes: options.scopes,
            rateLimitPerMinute: options.rateLimit ?? config.defaultRateLimitPerMinute,
            expiresAt: options.expiresAt ?? null,
          })
        })
        const { record } = created
        print(
          !!options.json,
          {
            key: created.key,
            id: record.id,
            organisationId: record.organisation_id,
            name: record.name,
            prefix: record.prefix,
            scopes: record.scopes.split(' '),
            rateLimitPerMinute: record.rate_limit_per_minute,
            expiresAt: record.expires_at,
            createdAt: record.created_at,
          },
          `${created.key}\n(id ${record.id}, scopes ${record.scopes}, ${record.rate_limit_per_minute}/min` +
            `${record.expires_at ? `, expires ${record.expires_at}` : ''}; shown once, store it now)`,
        )
      },
    )
  keys
    .command('list')
    .description("List an organisation's keys (never the secret)")
    .requiredOption('--org <id>', 'organisation id')
    .option('--json', 'machine-readable output')
    .action(async (options: { org: string; json?: boolean }) => {
      const rows = await withDatabase(config, ({ db }) => listApiKeys(db, options.org))
      const listed = rows.map(({ key_hash: _hash, ...row }) => row)
      print(
        !!options.json,
        listed,
        listed
          .map(
            (k) =>
              `${k.id}  ${k.prefix}…  ${k.scopes.padEnd(16)}  ${k.revoked_at ? 'revoked' : 'active '}  ${k.name}`,
          )
          .join('\n') || '(none)',
      )
    })
  keys
    .command('revoke')
    .description('Revoke a key by id or display prefix; running services refuse it within seconds')
    .argument('<idOrPrefix>', 'key id, or the svc_live_… prefix shown in lists')
    .option('--json', 'machine-readable output')
    .action(async (idOrPrefix: string, options: { json?: boolean }) => {
      const revoked = await withDatabase(config, async ({ db }) => {
        const matches = await findApiKeysByIdOrPrefix(db, idOrPrefix)
        if (matches.length === 0) throw new Error(`No API key with id or prefix ${idOrPrefix}`)
        if (matches.length > 1)
          throw new Error(`${matches.length} keys share the prefix ${idOrPrefix}; use the id`)
        const key = matches[0]!
        await revokeApiKey(db, key.organisation_id, key.id)
        return key
      })
      print(!!options.json, { id: revoked.id, revoked: true }, `Revoked ${revoked.prefix}… (${revoked.id})`)
    })

  program
    .command('demo')
    .description('Seed a demo organisation (idempotent), print ready-to-use keys, then serve')
    .option('--no-serve', 'seed and print keys, then exit')
    .option('--json', 'machine-readable output')
    .action(async (options: { serve: boolean; json?: boolean }) => {
      // The demo is for a laptop: let automations target a local receiver unless told otherwise.
      const allowPrivate = process.env.WEBHOOK_ALLOW_PRIVATE === undefined || config.webhookAllowPrivate
      await runDemo(
        { ...config, webhookAllowPrivate: allowPrivate },
        { serve: options.serve, json: !!options.json },
      )
    })

  return program
}
