// The `fieldservice` command as an operator runs it: a real process on a real SQLite file.
// (CI's .ci/run also drives the built CLI against PostgreSQL.)
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { buildCli } from '../src/cli/program.js'
import { loadConfig } from '../src/config.js'
import { createDatabase } from '../src/db/database.js'

describe('fieldservice CLI', () => {
  let dir: string
  let env: NodeJS.ProcessEnv

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fieldservice-cli-'))
    env = { ...process.env, DATABASE_URL: join(dir, 'cli.db') }
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  // The program runs in-process (a process per command would cost a second each); commander's
  // own exits become exceptions.
  const cli = async (...args: string[]) => {
    let stdout = ''
    let stderr = ''
    const program = buildCli(loadConfig(env), {
      write: (text) => {
        stdout += text
      },
    })
    const writeErr = (text: string) => {
      stderr += text
    }
    for (const command of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
      command.exitOverride().configureOutput({ writeErr, writeOut: () => {} })
    }
    try {
      await program.parseAsync(['node', 'fieldservice', ...args])
    } catch (error) {
      throw Object.assign(new Error(stderr || (error as Error).message), {
        stderr: stderr || (error as Error).message,
      })
    }
    return stdout
  }
  const cliJson = async (...args: string[]) => JSON.parse(await cli(...args, '--json'))
  const cliFails = async (...args: string[]) => {
    try {
      await cli(...args)
    } catch (error) {
      return (error as { stderr: string }).stderr
    }
    throw new Error(`expected "${args.join(' ')}" to fail`)
  }

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
    expect(key).toMatchObject({
      organisationId: orgs.PRO?.id,
      name: 'ERP sync',
      scopes: ['read', 'write'],
      rateLimitPerMinute: 1_000_000,
      expiresAt: '2099-01-01T00:00:00.000Z',
    })
    expect(key.prefix).toBe(key.key.slice(0, 17))

    const defaultKey = await cliJson('keys', 'create', '--org', orgs.PRO?.id as string)
    expect(defaultKey).toMatchObject({ scopes: ['read'], rateLimitPerMinute: 100 })

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
      expect(await cliJson('keys', 'revoke', key.prefix)).toEqual({ id: key.id, revoked: true })
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
