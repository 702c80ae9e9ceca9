// Secrets under hostile input: API keys are found by the SHA-256 of the whole key (an indexed
// lookup, no comparison of secrets in JavaScript at all), nothing in src compares a secret with
// `===`, and no key ever reaches the logs — not on success, refusal, malformed headers or a 500.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { InjectOptions } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/app.js'
import { hashApiKey } from '../../src/modules/api-keys/service.js'
import { loggerOptions } from '../../src/server.js'
import { createKey, createTenant, createTestDatabase, DIALECTS, type TestDatabase } from '../helpers.js'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

// An operand naming a secret on either side of === or !==, unless the other side is a literal
// null, undefined or '' (a presence check leaks nothing about the value).
const SECRET_NAME = /secret|signature|token|keyhash|key_hash|password|hmac|digest/i
const PRESENCE = /^(null|undefined|''|"")$/

function comparesSecret(line: string): boolean {
  for (const [, left = '', right = ''] of line.matchAll(/([\w.'"]+)\s*[!=]==\s*([\w.'"]+)/g)) {
    if (PRESENCE.test(left) || PRESENCE.test(right)) continue
    if (SECRET_NAME.test(left) || SECRET_NAME.test(right)) return true
  }
  return false
}

describe('timing-safe handling of secrets', () => {
  it('recognises a comparison of a secret', () => {
    expect(comparesSecret('if (signature === expected) return')).toBe(true)
    expect(comparesSecret('return row.key_hash !== hash')).toBe(true)
    expect(comparesSecret('if (row.previous_secret !== null) return')).toBe(false)
  })

  it('has no === or !== comparison of a secret anywhere in src', () => {
    const offending = sourceFiles('src').flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${file}:${i + 1}`, line: line.trim() }))
        .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && comparesSecret(line)),
    )
    expect(offending).toEqual([])
  })

  it('finds keys by the SHA-256 of the whole key, through the database index', () => {
    const auth = readFileSync('src/modules/auth/api-key-resolver.ts', 'utf8')
    expect(auth).toMatch(/findApiKeyByHash\(this\.db, hashApiKey\(token\)\)/)
    expect(hashApiKey('svc_live_abc')).toMatch(/^[0-9a-f]{64}$/)
    expect(readFileSync('src/modules/api-keys/repository.ts', 'utf8')).toMatch(
      /where\('api_keys\.key_hash', '=', keyHash\)/,
    )
  })

  it('verifies webhook signatures in the example receiver with timingSafeEqual', () => {
    const receiver = readFileSync('examples/webhook-receiver.mjs', 'utf8')
    expect(receiver).toMatch(/timingSafeEqual\(/)
    expect(receiver).not.toMatch(/mac\s*===|===\s*mac|signature\s*===/i)
  })
})

/** Everything pino writes, as one string per line. */
function captureStream() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      callback()
    },
  })
  return { stream, lines }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: API keys under hostile input`, () => {
    let database: TestDatabase
    let app: App
    const captured = captureStream()
    const context = () => ({ app, database, dialect, close: async () => {} })

    beforeAll(async () => {
      database = await createTestDatabase(dialect)
      app = await buildApp({
        db: database.db,
        dialect,
        config: {
          authCacheTtlMs: 0,
          defaultRateLimitPerMinute: 100,
          bodyLimitBytes: 1024 * 1024,
          webhookDispatcher: false,
          webhookAllowPrivate: true,
        },
        logger: { ...loggerOptions('trace'), stream: captured.stream },
      })
      await app.ready()
    })
    afterAll(async () => {
      await app.close()
      await database.cleanup()
    })

    it('answers an almost-right key exactly like a random one', async () => {
      const tenant = await createTenant(context())
      const near = [
        `${tenant.key.slice(0, -1)}${tenant.key.endsWith('A') ? 'B' : 'A'}`, // last character wrong
        `${tenant.key.slice(0, 17)}${'A'.repeat(tenant.key.length - 17)}`, // right display prefix only
        `svc_live_${'Z'.repeat(40)}`,
      ]
      const answers = await Promise.all(
        near.map((key) =>
          app.inject({ method: 'GET', url: '/v1/public/jobs', headers: { authorization: `Bearer ${key}` } }),
        ),
      )
      expect(answers.map((a) => [a.statusCode, a.json()])).toEqual(
        near.map(() => [401, { error: 'Unknown API key', code: 'UNAUTHORIZED' }]),
      )
    })

    it('never writes a key to the logs, whatever happens to the request', async () => {
      const tenant = await createTenant(context(), { scopes: ['read', 'write', 'admin'] })
      const reader = await createKey(context(), tenant.organisationId, { scopes: ['read'] })
      const secrets = [tenant.key, reader.key]
      const send = async (
        authorization: string | string[],
        method: 'GET' | 'POST' = 'GET',
        url = '/v1/public/jobs',
      ): Promise<{ statusCode: number }> => {
        const options: InjectOptions = {
          method,
          url,
          headers: { authorization, 'content-type': 'application/json' } as InjectOptions['headers'],
        }
        if (method === 'POST') options.payload = '{"title":'
        return app.inject(options)
      }
      const statuses = [
        (await send(tenant.headers.authorization)).statusCode,
        (await send(tenant.headers.authorization, 'POST')).statusCode, // malformed JSON
        (await send(reader.headers.authorization, 'POST')).statusCode, // lacks the scope
        (await send(`bearer  ${tenant.key}`)).statusCode,
        (await send(tenant.key)).statusCode, // no scheme
        (await send(`Bearer ${tenant.key} ${tenant.key}`)).statusCode,
        (await send(`Bearer ${tenant.key}x`)).statusCode,
        (await send(`Bearer ${tenant.key.slice(0, 20)}`)).statusCode,
        // Two Authorization headers: the first one counts, as Node's HTTP parser keeps only it.
        (await send([tenant.headers.authorization, reader.headers.authorization])).statusCode,
        (await send(tenant.headers.authorization, 'GET', `/v1/public/nowhere`)).statusCode,
      ]
      expect(statuses).toEqual([200, 400, 403, 200, 401, 401, 401, 401, 200, 404])
      // A 500 after authentication (a table gone), then one during it (the key table gone).
      await sql`ALTER TABLE tags RENAME TO tags_gone`.execute(database.db)
      expect((await send(tenant.headers.authorization, 'GET', '/v1/admin/tags')).statusCode).toBe(500)
      await sql`ALTER TABLE api_keys RENAME TO api_keys_gone`.execute(database.db)
      expect((await send(tenant.headers.authorization)).statusCode).toBe(500)
      await sql`ALTER TABLE api_keys_gone RENAME TO api_keys`.execute(database.db)
      await sql`ALTER TABLE tags_gone RENAME TO tags`.execute(database.db)

      const logs = captured.lines.join('\n')
      expect(captured.lines.filter((line) => line.includes('"unhandled error"'))).toHaveLength(2)
      expect(
        captured.lines.filter((line) => line.includes('"incoming request"')).length,
      ).toBeGreaterThanOrEqual(12)
      for (const key of secrets) {
        expect(logs).not.toContain(key)
        expect(logs).not.toContain(key.slice(17)) // the secret beyond the public display prefix
        expect(logs).not.toContain(hashApiKey(key))
      }
    })
  })
}
