// The `fieldservice` command as an operator runs it: in-process on a real database for the
// commands, and as real processes (npm run demo / dev, the built entry point) for exit codes,
// --version and Ctrl-C. (CI's .ci/run also drives the built CLI against PostgreSQL.)
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { createDatabase } from '../src/db/database.js'
import { REPEATED_SIGNAL_MS } from '../src/server.js'
import { ensureDashboardBuilt } from './browser/build.js'
import { cliOn } from './cli-runner.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'
import { freePort, waitUntil } from './processes.js'

const ROOT = new URL('../', import.meta.url)
const { version } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string }

describe('fieldservice CLI', () => {
  let dir: string
  let env: NodeJS.ProcessEnv

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fieldservice-cli-'))
    env = { ...process.env, DATABASE_URL: join(dir, 'cli.db') }
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  const cli = (...args: string[]) => cliOn(env).cli(...args)
  const cliJson = (...args: string[]) => cliOn(env).cliJson(...args)
  const cliFails = (...args: string[]) => cliOn(env).cliFails(...args)

  it('migrates, creates organisations on every plan, and issues, lists and revokes keys', async () => {
    const { applied } = await cliJson('migrate')
    expect(applied).toContain('0001-initial')
    expect(await cli('migrate')).toContain('Database is up to date')
    const orgs: Record<string, { id: string; plan: string }> = {}
    for (const plan of ['FREE', 'STARTER', 'PRO', 'ENTERPRISE']) {
      orgs[plan] = await cliJson('orgs', 'create', '--name', `${plan} Plumbing`, '--plan', plan)
      expect(orgs[plan]?.plan).toBe(plan)
    }
    const listed = await cliJson('orgs', 'list')
    expect(listed).toHaveLength(4)

    // Keys can be prepared for an organisation before it upgrades.
    const starterKey = await cliJson(
      'keys',
      'create',
      '--org',
      orgs.STARTER?.id as string,
      '--scopes',
      'read',
    )
    expect(starterKey.key).toMatch(/^svc_live_[0-9A-Za-z]{40}$/)

    const key = await cliJson(
      'keys',
      'create',
      '--org',
      orgs.PRO?.id as string,
      '--name',
      'ERP sync',
      '--scopes',
      'read,write',
      '--rate-limit',
      '1000000',
      '--expires-at',
      '2099-01-01T00:00:00Z',
    )
    expect(key.apiKey).toMatchObject({
      name: 'ERP sync',
      scopes: ['read', 'write'],
      rateLimitPerMinute: 1_000_000,
      expiresAt: '2099-01-01T00:00:00.000Z',
    })
    expect(key.apiKey.prefix).toBe(key.key.slice(0, 17))

    const defaultKey = await cliJson('keys', 'create', '--org', orgs.PRO?.id as string)
    expect(defaultKey.apiKey).toMatchObject({ scopes: ['read'], rateLimitPerMinute: 100 })

    const keys = await cliJson('keys', 'list', '--org', orgs.PRO?.id as string)
    expect(keys).toHaveLength(2)
    expect(JSON.stringify(keys)).not.toContain(key.key)
    expect(keys[0]).not.toHaveProperty('key_hash')

    // The key works against the service, and stops working once revoked.
    const database = createDatabase(env.DATABASE_URL as string)
    const app = await buildApp({
      db: database.db,
      dialect: database.dialect,
      config: { authCacheTtlMs: 0, defaultRateLimitPerMinute: 100, bodyLimitBytes: 1024 * 1024 },
    })
    try {
      const headers = { authorization: `Bearer ${key.key}` }
      const ok = await app.inject({ method: 'GET', url: '/v1/public/jobs', headers })
      expect(ok.statusCode).toBe(200)
      expect(ok.headers['x-ratelimit-limit']).toBe('1000000')
      const revoked = await cliJson('keys', 'revoke', key.apiKey.prefix)
      expect(revoked.apiKey).toMatchObject({ id: key.apiKey.id, revokedAt: expect.any(String) })
      expect((await app.inject({ method: 'GET', url: '/v1/public/jobs', headers })).statusCode).toBe(401)
    } finally {
      await app.close()
      await database.destroy()
    }
  })

  it('refuses bad arguments with a message and a non-zero exit', async () => {
    expect(await cliFails('orgs', 'create', '--name', 'X', '--plan', 'GOLD')).toMatch(/choices/i)
    expect(await cliFails('keys', 'create', '--org', 'nope')).toMatch(/no organisation/i)
    expect(await cliFails('keys', 'create', '--org', 'x', '--scopes', 'read,root')).toMatch(/scopes/i)
    expect(await cliFails('keys', 'create', '--org', 'x', '--rate-limit', '0')).toMatch(/whole number/i)
    expect(await cliFails('keys', 'create', '--org', 'x', '--expires-at', 'soon')).toMatch(/ISO 8601/i)
    expect(await cliFails('keys', 'revoke', 'svc_live_nothing')).toMatch(/no api key/i)
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: fieldservice CLI keys and demo`, () => {
    let database: { url: string; cleanup(): Promise<void> }
    let env: NodeJS.ProcessEnv
    let cli: ReturnType<typeof cliOn>

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      env = { ...process.env, DATABASE_URL: database.url }
      cli = cliOn(env)
    })
    afterAll(() => database.cleanup())

    /** The service on this database, to see which keys work. */
    async function withApp(action: (status: (key: string) => Promise<number>) => Promise<void>) {
      const handle = createDatabase(database.url)
      const app = await buildApp({
        db: handle.db,
        dialect: handle.dialect,
        config: { authCacheTtlMs: 0, defaultRateLimitPerMinute: 100, bodyLimitBytes: 1024 * 1024 },
      })
      try {
        await action(async (key) => {
          const headers = { authorization: `Bearer ${key}` }
          return (await app.inject({ method: 'GET', url: '/v1/public/jobs', headers })).statusCode
        })
      } finally {
        await app.close()
        await handle.destroy()
      }
    }

    it('refuses an expiry in the past, and prints the API shapes with --json', async () => {
      const org = await cli.cliJson('orgs', 'create', '--name', 'Shapes Ltd', '--plan', 'PRO')
      expect(org).toEqual({
        id: org.id,
        name: 'Shapes Ltd',
        plan: 'PRO',
        routing: { detourFactor: 1.3, speedKmh: 40, latenessPenaltyPerMinute: 1 },
        notifications: { customerEmails: { enRoute: false, completed: false, smtpConfigured: false } },
        map: { tileUrl: null, attribution: null },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      })
      expect((await cli.cliJson('orgs', 'list')).find((o: { id: string }) => o.id === org.id)).toEqual(org)

      for (const past of ['2020-01-01', new Date(Date.now() - 60_000).toISOString()]) {
        expect(await cli.cliFails('keys', 'create', '--org', org.id, '--expires-at', past)).toMatch(
          /--expires-at.*must be in the future/,
        )
      }
      expect(await cli.cliJson('keys', 'list', '--org', org.id)).toEqual([])

      const created = await cli.cliJson('keys', 'create', '--org', org.id, '--scopes', 'write,read')
      const apiKey = {
        id: created.apiKey.id,
        name: 'API key',
        prefix: created.key.slice(0, 17),
        scopes: ['read', 'write'],
        rateLimitPerMinute: 100,
        createdAt: created.apiKey.createdAt,
        lastUsedAt: null,
        expiresAt: null,
        revokedAt: null,
      }
      expect(created).toEqual({ apiKey, key: expect.stringMatching(/^svc_live_[0-9A-Za-z]{40}$/) })
      expect(await cli.cliJson('keys', 'list', '--org', org.id)).toEqual([apiKey])
      const revoked = await cli.cliJson('keys', 'revoke', apiKey.id)
      expect(revoked).toEqual({ apiKey: { ...apiKey, revokedAt: expect.any(String) } })
    })

    it('revokes a key by its id, its prefix (as listed) or the whole key, never echoing the secret', async () => {
      const org = await cli.cliJson('orgs', 'create', '--name', 'Revokers Ltd')
      const keys: { key: string; apiKey: { id: string; prefix: string } }[] = []
      for (let i = 0; i < 4; i++) keys.push(await cli.cliJson('keys', 'create', '--org', org.id))
      const [byId, byPrefix, byListedPrefix, byKey] = keys as [
        (typeof keys)[0],
        (typeof keys)[0],
        (typeof keys)[0],
        (typeof keys)[0],
      ]
      await cli.cli('keys', 'revoke', byId.apiKey.id)
      await cli.cli('keys', 'revoke', byPrefix.apiKey.prefix)
      await cli.cli('keys', 'revoke', `${byListedPrefix.apiKey.prefix}…`)
      const text = await cli.cli('keys', 'revoke', byKey.key)
      expect(text).toBe(`Revoked ${byKey.apiKey.prefix}… (${byKey.apiKey.id})\n`)
      const listed = await cli.cliJson('keys', 'list', '--org', org.id)
      expect(listed.map((k: { revokedAt: string | null }) => k.revokedAt !== null)).toEqual([
        true,
        true,
        true,
        true,
      ])
      await withApp(async (status) => {
        for (const key of keys) expect(await status(key.key)).toBe(401)
      })

      const unknown = `svc_live_${'Q'.repeat(40)}`
      const refusal = await cli.cliFails('keys', 'revoke', unknown)
      expect(refusal).toMatch(/no api key with id, prefix or key svc_live_QQQQQQQQ…/i)
      expect(refusal).not.toContain(unknown)
    })

    it('replaces the demo keys on every run instead of piling them up', async () => {
      const first = await cli.cliJson('demo', '--no-serve')
      const second = await cli.cliJson('demo', '--no-serve')
      expect(second.organisationId).toBe(first.organisationId)
      expect(second.created).toBe(false)
      const listed = await cli.cliJson('keys', 'list', '--org', first.organisationId)
      expect(listed.map((k: { name: string }) => k.name).sort()).toEqual(['demo admin', 'demo read+write'])
      await withApp(async (status) => {
        expect(await status(first.readWriteKey)).toBe(401)
        expect(await status(second.readWriteKey)).toBe(200)
      })
      expect(await cli.cli('demo', '--no-serve')).toMatch(/earlier runs no longer work/)
      expect(await cli.cliJson('keys', 'list', '--org', first.organisationId)).toHaveLength(2)
    }, 60_000) // the demo hashes two passwords per run at the real scrypt cost
  })
}

describe('fieldservice as a process', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: ':memory:' },
    })

  it('prints its version', () => {
    for (const flag of ['--version', '-V']) {
      const result = run(flag)
      expect(result.status).toBe(0)
      expect(result.stdout).toBe(`${version}\n`)
    }
  })

  it('exits non-zero on a password that is too short, saying why', () => {
    const result = run(
      'users',
      'create',
      '--org',
      'any',
      '--email',
      'a@example.com',
      '--name',
      'A',
      '--role',
      'ADMIN',
      '--password',
      'short',
    )
    expect(result.status).toBe(1)
    expect(result.stderr).toBe('fieldservice: the password must be at least 12 characters (it has 5)\n')
  })

  it('exits non-zero on an expiry in the past, saying why', () => {
    const result = run('keys', 'create', '--org', 'any', '--expires-at', '2020-01-01T00:00:00Z')
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(
      /option '--expires-at <datetime>' argument '2020-01-01T00:00:00Z' is invalid\. must be in the future/,
    )
  })
})

/** The JSON log lines among what a process printed. */
const logLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; signal?: string })

/**
 * `npm run <script>` in a process group of its own, as a terminal runs it, sent a Ctrl-C (SIGINT to
 * the whole group, as a terminal does) once it serves, and with `pressAgain` a second one once that
 * has held for a while. Returns what it printed and how it ended.
 */
async function interrupt(
  script: 'demo' | 'dev',
  env: Record<string, string>,
  pressAgain?: (logs: ReturnType<typeof logLines>) => void,
) {
  const port = await freePort()
  const child: ChildProcess = spawn('npm', ['run', script], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), METRICS_PORT: '0', LOG_LEVEL: 'info', ...env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  try {
    // An answer, not only the log line: the signal handlers are installed just after the line is
    // written, and a Ctrl-C before them would stop the process the default way.
    await waitUntil(
      `npm run ${script} to serve`,
      async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok ? true : undefined),
      60_000,
    )
    process.kill(-(child.pid as number), 'SIGINT')
    if (pressAgain) {
      // Well past anything that could be the same press delivered twice.
      await new Promise((resolve) => setTimeout(resolve, 2 * REPEATED_SIGNAL_MS))
      pressAgain(logLines(stdout))
      process.kill(-(child.pid as number), 'SIGINT')
    }
    const [code, signal] = await exited
    const logs = logLines(stdout)
    // npm's complaint about this machine's own npmrc is not ours.
    const noise = stderr
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^npm warn Unknown \w+ config/.test(line))
    return { code, signal, logs, noise }
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), 'SIGKILL')
  }
}

/**
 * Each test starts npm, tsx and the server from cold: seconds on an idle machine, but a loaded one
 * (the whole suite alongside) once took past vitest's default 20 s.
 */
const PROCESS_TEST_TIMEOUT_MS = 90_000

for (const dialect of DIALECTS) {
  describe(`${dialect}: Ctrl-C`, () => {
    let database: { url: string; cleanup(): Promise<void> }

    // npm run demo and dev build the dashboard first when it is missing or stale: done here, once, so
    // the tests time the Ctrl-C and not a build.
    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      await ensureDashboardBuilt()
    }, 300_000)
    afterAll(() => database.cleanup())

    it(
      'stops npm run demo once, at once and quietly',
      async () => {
        const { code, signal, logs, noise } = await interrupt('demo', { DATABASE_URL: database.url })
        expect({ code, signal }).toEqual({ code: 0, signal: null })
        expect(logs.filter((line) => line.signal).map((line) => line.msg)).toEqual(['shutting down'])
        // Nothing to drain on a laptop: no delay unless SHUTDOWN_DELAY_MS asks for one.
        expect(logs.map((line) => line.msg)).not.toContain(
          'shutting down: /readyz answers 503; still serving during the delay',
        )
        expect(noise).toEqual([])
      },
      PROCESS_TEST_TIMEOUT_MS,
    )

    it(
      'takes one Ctrl-C in npm run dev as one signal; a second press skips the drain delay',
      async () => {
        const stopping = (logs: ReturnType<typeof logLines>) =>
          logs.filter((line) => line.signal).map((line) => line.msg)
        const { code, signal, logs, noise } = await interrupt(
          'dev',
          { DATABASE_URL: database.url, SHUTDOWN_DELAY_MS: '60000' },
          (sofar) => expect(stopping(sofar)).toEqual(['shutting down']),
        )
        expect({ code, signal }).toEqual({ code: 0, signal: null })
        expect(stopping(logs)).toEqual([
          'shutting down',
          'second signal: skipping the rest of the drain delay',
        ])
        expect(noise).toEqual([])
      },
      PROCESS_TEST_TIMEOUT_MS,
    )
  })
}
