// Sign-in's password verifications, watched through the passwords module: a credential that changes
// between its verification and the session's start, through app.inject() on both databases.
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  createTenant,
  createTestApp,
  DIALECTS,
  TEST_PASSWORD_PARAMS,
  type TestContext,
} from '../../../test/helpers.js'
import { makeDashboardUser, PASSWORD } from '../../../test/sessions.js'
import { setUserActive, setUserPassword, updateUser } from '../organisations/users-service.js'

/** Every verification sign-in runs, and what runs after a verification (before its answer is used). */
const verifications = vi.hoisted(() => ({
  stored: [] as string[],
  afterMatch: undefined as (() => Promise<void>) | undefined,
}))

vi.mock('./passwords.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./passwords.js')>()
  return {
    ...actual,
    async verifyPassword(password: string, stored: string): Promise<boolean> {
      verifications.stored.push(stored)
      const matches = await actual.verifyPassword(password, stored)
      const hook = verifications.afterMatch
      if (matches && hook) {
        verifications.afterMatch = undefined
        await hook()
      }
      return matches
    },
  }
})

const GENERIC = { error: 'Email or password is incorrect', code: 'UNAUTHORIZED' }

for (const dialect of DIALECTS) {
  describe(`${dialect}: a credential that changes during a sign-in`, () => {
    let t: TestContext
    const signInAs = (email: string, password = PASSWORD) =>
      t.app.inject({ method: 'POST', url: '/v1/admin/session', payload: { email, password } })
    const sessionsOf = async (userId: string) =>
      (await t.database.db.selectFrom('user_sessions').select('id').where('user_id', '=', userId).execute())
        .length

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())
    afterEach(() => {
      verifications.afterMatch = undefined
    })

    const changes = {
      'a password change': (organisationId: string, id: string) =>
        setUserPassword(t.database.db, organisationId, id, 'a brand new passphrase', TEST_PASSWORD_PARAMS),
      'a deactivation': (organisationId: string, id: string) =>
        setUserActive(t.database.db, organisationId, id, false),
      'becoming a WORKER': (organisationId: string, id: string) =>
        updateUser(t.database.db, organisationId, id, { role: 'WORKER' }),
    }
    for (const [change, apply] of Object.entries(changes)) {
      it(`opens no session when ${change} commits between the verification and the session`, async () => {
        const tenant = await createTenant(t)
        const user = await makeDashboardUser(t, tenant.organisationId)
        verifications.afterMatch = async () => {
          await apply(tenant.organisationId, user.id)
        }
        const response = await signInAs(user.email)
        expect(verifications.afterMatch).toBeUndefined() // the change did run after the verification
        expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 401, body: GENERIC })
        expect(response.headers['set-cookie']).toBeUndefined()
        expect(await sessionsOf(user.id)).toBe(0)
      })
    }

    it.runIf(dialect === 'postgres')(
      'waits for a password change still in flight when the session starts, then opens none',
      async () => {
        const tenant = await createTenant(t)
        const user = await makeDashboardUser(t, tenant.organisationId)
        const { hashPassword } = await vi.importActual<typeof import('./passwords.js')>('./passwords.js')
        const newHash = await hashPassword('a brand new passphrase', TEST_PASSWORD_PARAMS)
        let commit = () => {}
        let changing: Promise<void> = Promise.resolve()
        // The change (as setUserPassword makes it) has updated the row but not committed when the
        // sign-in goes on to start its session.
        verifications.afterMatch = async () => {
          let updated = () => {}
          const ready = new Promise<void>((resolve) => {
            updated = resolve
          })
          changing = t.database.db.transaction().execute(async (trx) => {
            await trx.updateTable('users').set({ password_hash: newHash }).where('id', '=', user.id).execute()
            await trx.deleteFrom('user_sessions').where('user_id', '=', user.id).execute()
            updated()
            await new Promise<void>((resolve) => {
              commit = resolve
            })
          })
          await ready
        }
        let answered = false
        const response = signInAs(user.email).finally(() => {
          answered = true
        })
        // Either the sign-in waits for the change's row lock, or it answers without waiting.
        const waiting = sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`
        while (!answered && (await waiting.execute(t.database.db)).rows[0]?.n === 0) {
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
        commit()
        await changing
        expect((await response).statusCode).toBe(401)
        expect(await sessionsOf(user.id)).toBe(0)
      },
    )

    it('still signs in when nothing changes, and when only the hash is upgraded meanwhile', async () => {
      const tenant = await createTenant(t)
      const user = await makeDashboardUser(t, tenant.organisationId)
      expect((await signInAs(user.email)).statusCode).toBe(200)
      // A weaker hash is replaced by a stronger one of the same password during the sign-in itself.
      const { hashPassword } = await vi.importActual<typeof import('./passwords.js')>('./passwords.js')
      await t.database.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD, { ln: 8, r: 8, p: 1 }) })
        .where('id', '=', user.id)
        .execute()
      expect((await signInAs(user.email)).statusCode).toBe(200)
      expect(await sessionsOf(user.id)).toBe(2)
    })
  })
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: verifications per sign-in`, () => {
    /** How many verifications one sign-in ran, and its status. */
    const verificationsOf = async (t: TestContext, payload: Record<string, string>) => {
      verifications.stored.length = 0
      const response = await t.app.inject({ method: 'POST', url: '/v1/admin/session', payload })
      return { status: response.statusCode, verifications: verifications.stored.length }
    }

    it('are as many for an unknown email as for one in one organisation or in two, with or without organisationId', async () => {
      const t = await createTestApp(dialect)
      try {
        const [first, second, other] = [await createTenant(t), await createTenant(t), await createTenant(t)]
        const shared = `shared-${Date.now()}@example.com`
        await makeDashboardUser(t, first.organisationId, { email: shared })
        await makeDashboardUser(t, second.organisationId, {
          email: shared,
          password: 'another password entirely',
        })
        const single = await makeDashboardUser(t, first.organisationId)
        const attempts = {
          'unknown email': { email: 'nobody@example.com', password: PASSWORD },
          'unknown email, organisationId': {
            email: 'nobody@example.com',
            password: PASSWORD,
            organisationId: first.organisationId,
          },
          'one organisation, wrong password': { email: single.email, password: 'wrong password' },
          'one organisation, right password': { email: single.email, password: PASSWORD },
          'one organisation, another organisationId': {
            email: single.email,
            password: PASSWORD,
            organisationId: other.organisationId,
          },
          'two organisations, wrong password': { email: shared, password: 'wrong password' },
          'two organisations, right password': { email: shared, password: PASSWORD },
          'two organisations, organisationId': {
            email: shared,
            password: PASSWORD,
            organisationId: first.organisationId,
          },
        }
        const seen: Record<string, { status: number; verifications: number }> = {}
        for (const [name, payload] of Object.entries(attempts)) seen[name] = await verificationsOf(t, payload)
        expect(seen).toEqual({
          'unknown email': { status: 401, verifications: 2 },
          'unknown email, organisationId': { status: 401, verifications: 2 },
          'one organisation, wrong password': { status: 401, verifications: 2 },
          'one organisation, right password': { status: 200, verifications: 2 },
          'one organisation, another organisationId': { status: 401, verifications: 2 },
          'two organisations, wrong password': { status: 401, verifications: 2 },
          'two organisations, right password': { status: 200, verifications: 2 },
          'two organisations, organisationId': { status: 200, verifications: 2 },
        })
      } finally {
        await t.close()
      }
    })

    it('are one where no email is shared, until a shared one signs in', async () => {
      const t = await createTestApp(dialect)
      try {
        const [first, second] = [await createTenant(t), await createTenant(t)]
        const user = await makeDashboardUser(t, first.organisationId)
        expect(await verificationsOf(t, { email: user.email, password: PASSWORD })).toEqual({
          status: 200,
          verifications: 1,
        })
        expect(await verificationsOf(t, { email: 'nobody@example.com', password: PASSWORD })).toEqual({
          status: 401,
          verifications: 1,
        })
        // The same email in a second organisation now: every sign-in does two from the first one on.
        await makeDashboardUser(t, second.organisationId, { email: user.email })
        expect(await verificationsOf(t, { email: user.email, password: 'wrong password' })).toEqual({
          status: 401,
          verifications: 2,
        })
        expect(await verificationsOf(t, { email: 'nobody@example.com', password: PASSWORD })).toEqual({
          status: 401,
          verifications: 2,
        })
      } finally {
        await t.close()
      }
    })
  })
}
