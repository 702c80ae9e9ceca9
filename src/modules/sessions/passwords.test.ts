// Password hashing (scrypt, self-describing strings) and the password route's rules, the route on
// both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { makeDashboardUser } from '../../../test/sessions.js'
import { DEFAULT_SCRYPT, dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.js'

const CHEAP = { ln: 8, r: 8, p: 1 }

describe('password hashes', () => {
  it('are scrypt with their parameters and a random salt in the string, and verify only their password', async () => {
    const first = await hashPassword('correct horse battery', CHEAP)
    const second = await hashPassword('correct horse battery', CHEAP)
    expect(first).toMatch(/^\$scrypt\$ln=8,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(second).not.toBe(first) // salted
    expect(await verifyPassword('correct horse battery', first)).toBe(true)
    expect(await verifyPassword('correct horse battery!', first)).toBe(false)
    expect(await verifyPassword('', first)).toBe(false)
  })

  it('use OWASP-grade parameters by default: N = 2^15, r = 8, p = 3', async () => {
    expect(DEFAULT_SCRYPT).toEqual({ ln: 15, r: 8, p: 3 })
    const hash = await hashPassword('a long enough password')
    expect(hash).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$/)
    expect(await verifyPassword('a long enough password', hash)).toBe(true)
  })

  it('treat the composed and decomposed spellings of a character as the same password', async () => {
    const composed = 'crème brûlée pass'.normalize('NFC')
    const decomposed = composed.normalize('NFD')
    expect(decomposed).not.toBe(composed)
    expect(await verifyPassword(decomposed, await hashPassword(composed, CHEAP))).toBe(true)
  })

  it('never match a stored value that is not one of them', async () => {
    for (const stored of [
      '',
      'plain text',
      '$scrypt$ln=99,r=8,p=1$AAAA$AAAA',
      '$2b$10$abcdefghijklmnopqrstuv',
    ]) {
      expect(await verifyPassword('plain text', stored)).toBe(false)
    }
  })

  it('say when they were made with weaker parameters than the current ones', async () => {
    const weak = await hashPassword('x'.repeat(12), CHEAP)
    expect(needsRehash(weak, { ln: 10, r: 8, p: 1 })).toBe(true)
    expect(needsRehash(weak, CHEAP)).toBe(false)
    expect(needsRehash(weak, { ln: 8, r: 8, p: 2 })).toBe(true)
    expect(needsRehash(await hashPassword('y'.repeat(12), { ln: 10, r: 8, p: 1 }), CHEAP)).toBe(false)
  })

  it('have a dummy for unknown accounts, made once, that nothing verifies against', async () => {
    const dummy = await dummyHash(CHEAP)
    expect(await dummyHash(CHEAP)).toBe(dummy)
    expect(dummy).toMatch(/^\$scrypt\$ln=8,/)
    expect(await verifyPassword('', dummy)).toBe(false)
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: setting a password through the admin API`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('needs at least 12 characters, names the field, and changes nothing when refused', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const user = (
        await admin.post('/team/users', { name: 'Dee', email: 'dee@example.com', role: 'DISPATCHER' })
      ).body.data.user
      expect(user.hasPassword).toBe(false)
      for (const body of [{ password: 'elevenchars' }, { password: '' }, {}, { password: 123456789012 }]) {
        const refused = await admin.put(`/team/users/${user.id}/password`, body)
        expect(refused.status).toBe(400)
        expect(refused.body.code).toBe('VALIDATION_ERROR')
        expect(refused.body.error).toMatch(/password/)
      }
      const tooShort = await admin.put(`/team/users/${user.id}/password`, { password: 'elevenchars' })
      expect(tooShort.body.details).toEqual([
        { path: '/body/password', message: expect.stringMatching(/12/) },
      ])
      expect((await admin.get(`/team/users/${user.id}`)).body.data.user).toEqual(user)
      const set = await admin.put(`/team/users/${user.id}/password`, { password: 'twelve chars' })
      expect(set.status).toBe(200)
      expect(set.body.data.user).toMatchObject({ id: user.id, hasPassword: true })
      const row = await t.database.db
        .selectFrom('users')
        .select(['password_hash', 'password_changed_at'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow()
      expect(row.password_hash).toMatch(/^\$scrypt\$/)
      expect(row.password_hash).not.toContain('twelve')
      expect(row.password_changed_at).toBe(set.body.data.user.updatedAt)
      // The hash never leaves the service.
      expect(JSON.stringify((await admin.get('/team/users')).body)).not.toContain('$scrypt$')
    })

    it("answers 404 for an unknown user or another organisation's", async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const other = await createTenant(t)
      const theirs = await makeDashboardUser(t, other.organisationId)
      const admin = adminClient(t, tenant.headers)
      for (const id of [theirs.id, 'no-such-user']) {
        const response = await admin.put(`/team/users/${id}/password`, { password: 'long enough, surely' })
        expect(response.status).toBe(404)
      }
      const row = await t.database.db
        .selectFrom('users')
        .select('password_changed_at')
        .where('id', '=', theirs.id)
        .executeTakeFirstOrThrow()
      expect(row.password_changed_at).not.toBeNull()
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/v1/admin/session',
            payload: { email: theirs.email, password: theirs.password },
          })
        ).statusCode,
      ).toBe(200)
    })
  })
}
