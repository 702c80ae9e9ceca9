// The `fieldservice` command: serve, migrate, orgs, keys, users and demo. Every command takes --json,
// which prints the admin API's own shapes (camelCase, scopes as an array).
import cluster from 'node:cluster'
import { createRequire } from 'node:module'
import { Command, InvalidArgumentError, Option } from 'commander'
import { type Config, loadConfig } from '../config.js'
import { migrateToLatest } from '../db/migrator.js'
import type { PlanTier } from '../db/types.js'
import { serializeApiKey } from '../modules/api-keys/serialize.js'
import {
  createApiKey,
  describeKeyReference,
  findApiKeysByIdPrefixOrKey,
  getApiKey,
  isScope,
  listApiKeys,
  MAX_RATE_LIMIT_PER_MINUTE,
  revokeApiKey,
  type Scope,
} from '../modules/api-keys/service.js'
import { serializeOrganisation } from '../modules/organisations/serialize.js'
import {
  createOrganisation,
  findOrganisation,
  listOrganisations,
  PLAN_TIERS,
} from '../modules/organisations/service.js'
import { startServer } from '../server.js'
import { addArchiveCommands } from './archive.js'
import { runClusterPrimary, runClusterWorker } from './cluster.js'
import { runDemo } from './demo.js'
import { DEFAULT_SIMULATION_SPEED, SIMULATION_TICK_MS } from './demo-simulate.js'
import type { CliOutput } from './output.js'
import { addSolveCommand } from './solve.js'
import { addUserCommands } from './users.js'
import { withDatabase } from './with-database.js'

// package.json sits two levels up from both src/cli and dist/cli.
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string }

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

function parseSpeed(value: string): number {
  const speed = Number(value)
  if (!Number.isFinite(speed) || speed < 1 || speed > 600)
    throw new InvalidArgumentError('must be a number from 1 (real time) to 600')
  return speed
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

/** An expiry: an ISO 8601 date or datetime in the future, as the admin API requires too. */
function parseExpiry(value: string): string {
  const time = Date.parse(value)
  if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new InvalidArgumentError('must be an ISO 8601 date or datetime, e.g. 2027-01-31T00:00:00Z')
  }
  if (time <= Date.now()) throw new InvalidArgumentError('must be in the future')
  return new Date(time).toISOString()
}

export function buildCli(
  config: Config = loadConfig(),
  output: CliOutput = process.stdout,
  input: NodeJS.ReadableStream = process.stdin,
): Command {
  const print = (json: boolean, value: unknown, text: string) =>
    output.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`)
  const program = new Command('fieldservice')
    .description('Field-service management service: public REST API on SQLite or PostgreSQL')
    .version(version)
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
      await startServer(serveConfig, { closeOnSignals: true })
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
      print(
        !!options.json,
        serializeOrganisation(org, config.smtpUrl !== undefined),
        `Created organisation ${org.name} (${org.plan}): ${org.id}`,
      )
    })
  orgs
    .command('list')
    .description('List organisations')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }) => {
      const rows = await withDatabase(config, ({ db }) => listOrganisations(db))
      print(
        !!options.json,
        rows.map((row) => serializeOrganisation(row, config.smtpUrl !== undefined)),
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
    .option('--expires-at <datetime>', 'ISO 8601 expiry, in the future', parseExpiry)
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
          // As POST /v1/admin/api-keys answers it.
          { apiKey: serializeApiKey(record), key: created.key },
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
      const listed = (await withDatabase(config, ({ db }) => listApiKeys(db, options.org))).map(
        serializeApiKey,
      )
      print(
        !!options.json,
        listed,
        listed
          .map(
            (k) =>
              `${k.id}  ${k.prefix}…  ${k.scopes.join(' ').padEnd(16)}  ${k.revokedAt ? 'revoked' : 'active '}  ${k.name}`,
          )
          .join('\n') || '(none)',
      )
    })
  keys
    .command('revoke')
    .description(
      'Revoke a key by id, display prefix or the key itself; running services refuse it within seconds',
    )
    .argument('<key>', 'key id, the svc_live_… prefix shown in lists, or the whole key')
    .option('--json', 'machine-readable output')
    .action(async (reference: string, options: { json?: boolean }) => {
      const named = describeKeyReference(reference)
      const revoked = await withDatabase(config, async ({ db }) => {
        const matches = await findApiKeysByIdPrefixOrKey(db, reference)
        if (matches.length === 0) throw new Error(`No API key with id, prefix or key ${named}`)
        if (matches.length > 1)
          throw new Error(`${matches.length} keys share the prefix ${named}; use the id`)
        const key = matches[0]!
        await revokeApiKey(db, key.organisation_id, key.id)
        return getApiKey(db, key.organisation_id, key.id)
      })
      // As POST /v1/admin/api-keys/:id/revoke answers it.
      print(!!options.json, { apiKey: revoked }, `Revoked ${revoked.prefix}… (${revoked.id})`)
    })

  program
    .command('demo')
    .description('Seed a demo organisation (idempotent), print ready-to-use keys, then serve')
    .option('--no-serve', 'seed and print keys, then exit')
    .option('--json', 'machine-readable output')
    .option('--simulate', 'while serving, the workers on shift drive and work along their routes')
    .option(
      '--speed <n>',
      'with --simulate: simulated seconds of driving and working per real second',
      parseSpeed,
      DEFAULT_SIMULATION_SPEED,
    )
    .addHelpText(
      'after',
      `
With --simulate the demo's workers on shift now move on the board: every ${SIMULATION_TICK_MS / 1000} s each one
drives towards the next stop (at the travel model's speed × --speed), sets off, starts, fills in the
job's forms and completes it through the same services as the phone app, so ETAs, events and
webhooks behave as on a real day. Time is the real one: only shifts under way now move, a worker
ahead of the day waits for the next job's window, and one job under way overruns (twice its duration)
so that the stop after it goes AT_RISK.`,
    )
    .action(async (options: { serve: boolean; json?: boolean; simulate?: boolean; speed: number }) => {
      // The demo is for a laptop: let automations target a local receiver unless told otherwise.
      const allowPrivate = process.env.WEBHOOK_ALLOW_PRIVATE === undefined || config.webhookAllowPrivate
      // No load balancer to drain: Ctrl-C stops at once unless SHUTDOWN_DELAY_MS says otherwise.
      const shutdownDelayMs = process.env.SHUTDOWN_DELAY_MS === undefined ? 0 : config.shutdownDelayMs
      await runDemo(
        { ...config, webhookAllowPrivate: allowPrivate, shutdownDelayMs },
        { serve: options.serve, json: !!options.json, simulate: !!options.simulate, speed: options.speed },
        output,
      )
    })

  addUserCommands(program, config, print, input)
  addArchiveCommands(program, config, print)
  addSolveCommand(program, output)
  return program
}
