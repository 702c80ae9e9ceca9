// Issue 13, point 1: a body nobody asked for is never parsed, and no body is parsed deeper than 64
// levels. Parsing leaves no trace in an answer, so the tests send bodies whose parsing would change
// the answer: malformed JSON (a parse says 400), a nested document (a depth check says 400).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../test/helpers.js'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-body.js'

/** `levels` arrays, one inside the other: `[[[…]]]`. */
const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
const MIB = 1024 * 1024
const HOSTILE = Buffer.from(arrays(MIB / 2))
const MALFORMED = '{"title": '
const JSON_HEADERS = { 'content-type': 'application/json' }

describe('nestsDeeperThan', () => {
  const deeper = (text: string, max = 3) => nestsDeeperThan(Buffer.from(text), max)

  it.each([
    ['[[[]]]', false],
    ['[[[[]]]]', true],
    ['{"a":{"b":{"c":1}}}', false],
    ['{"a":{"b":{"c":{}}}}', true],
    ['[{}, {}, {}, [[]]]', false],
    ['[[], [], [[[]]]]', true],
    ['"[[[[[[[["', false],
    ['["[[[[", "{{{{", "]]]]"]', false],
    ['["\\"[[[[", "\\\\", [[]]]', false],
    ['["\\\\"[[[[]]]]', true],
    ['{"é✓😀": [[{"[": "]"}]]}', true],
    ['', false],
    ['[[[', false],
  ])('%s → %s (at most 3 levels)', (text, expected) => {
    expect(deeper(text)).toBe(expected)
  })

  it('stops at the first level too deep, however long the text', () => {
    expect(nestsDeeperThan(HOSTILE, MAX_JSON_DEPTH)).toBe(true)
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: bodies nobody asked for`, () => {
    let t: TestContext
    let tenant: TestTenant
    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
    })
    afterAll(() => t.close())

    const send = (
      method: string,
      url: string,
      payload: string | Buffer,
      headers: Record<string, string> = {},
    ) => t.app.inject({ method: method as 'POST', url, headers: { ...JSON_HEADERS, ...headers }, payload })

    it.each([
      ['POST', '/nowhere', 404],
      ['POST', '/v1/public/nowhere', 404],
      ['PUT', '/v1/admin/nowhere/at/all', 404],
      ['POST', '/healthz', 405],
      ['POST', '/readyz', 405],
      ['POST', '/v1/public/docs', 405],
      ['POST', '/v1/admin/openapi.json', 405],
      ['PUT', '/v1/public/jobs', 405],
      ['POST', '/', 405],
      ['OPTIONS', '/v1/public/jobs', 204],
      ['OPTIONS', '/v1/admin/jobs/x/assign', 204],
    ])('%s %s is answered %i without its body being parsed', async (method, url, status) => {
      for (const payload of [MALFORMED, HOSTILE]) {
        const response = await send(method, url, payload)
        expect(response.statusCode, `${payload.slice(0, 10)}`).toBe(status)
        if (status !== 204)
          expect(response.json().code).toBe(status === 404 ? 'NOT_FOUND' : 'METHOD_NOT_ALLOWED')
      }
    })

    it('an unknown route is not even read: a body over the size limit is still a 404, not a 413', async () => {
      const response = await send('POST', '/nowhere', Buffer.alloc(MIB + 1, 0x20))
      expect(response.statusCode).toBe(404)
    })

    it('a request without a key is refused before its body is read', async () => {
      for (const payload of [MALFORMED, HOSTILE, Buffer.alloc(MIB + 1, 0x20)]) {
        const response = await send('POST', '/v1/public/jobs', payload)
        expect(response.statusCode).toBe(401)
        expect(response.json().code).toBe('UNAUTHORIZED')
      }
    })

    it('an operation that takes no body refuses a hostile one as a body, without parsing it', async () => {
      for (const payload of [HOSTILE, MALFORMED]) {
        const response = await send('DELETE', '/v1/public/jobs/no-such-job', payload, tenant.headers)
        expect(response.statusCode).toBe(400)
        expect(response.json().error).toBe('body must be absent or {} (this operation takes no body)')
      }
    })

    it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels before anything else, creating nothing`, async () => {
      const api = client(t, tenant.headers)
      const before = (await api.get('/jobs')).body.data.pagination.total
      // The body object is level 1: a title of 63 arrays is 64 levels, one more is 65.
      const atLimit = await send(
        'POST',
        '/v1/public/jobs',
        `{"title":${arrays(MAX_JSON_DEPTH - 1)}}`,
        tenant.headers,
      )
      expect(atLimit.statusCode).toBe(400)
      expect(atLimit.json().details).toEqual([{ path: '/body/title', message: 'must be a string' }])
      for (const payload of [`{"title":${arrays(MAX_JSON_DEPTH)}}`, HOSTILE]) {
        const deep = await send('POST', '/v1/public/jobs', payload, tenant.headers)
        expect(deep.statusCode).toBe(400)
        expect(deep.json()).toEqual({
          error: `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
          code: 'VALIDATION_ERROR',
        })
      }
      expect((await api.get('/jobs')).body.data.pagination.total).toBe(before)
    })

    it('counts no bracket inside a string', async () => {
      const title = `${'['.repeat(100)} \\"{{{{ ${'}'.repeat(100)}`
      const response = await send('POST', '/v1/public/jobs', `{"title":"${title}"}`, tenant.headers)
      expect(response.statusCode).toBe(201)
      expect(response.json().data.job.title).toBe(title.replace('\\"', '"'))
    })
  })
}
