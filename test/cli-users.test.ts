// `fieldservice users create / set-password` and the demo's sign-ins, in-process on a real database
// of each dialect, checked against the service's own sign-in route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { createDatabase } from '../src/db/database.js'
import { cliOn } from './cli-runner.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'

const PASSWORD = 'a long passphrase'
/** Each command opens and migrates the database, and hashes with the real scrypt cost (~0.5 s). */
const SLOW = 60_000

for (const dialect of DIALECTS) {
  describe(`${dialect}: fieldservice users`, () => {
    let database: { url: string; cleanup(): Promise<void> }
    let cli: ReturnType<typeof cliOn>
    let org: { id: string }

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      cli = cliOn({ ...process.env, DATABASE_URL: database.url })
      org = await cli.cliJson('orgs', 'create', '--name', 'Users Ltd', '--plan', 'STARTER')
    })
    afterAll(() => database.cleanup())

    /** Signs in through the service on this database: the status, and the session's role. */
    async function signInStatus(email: string, password: string): Promise<{ status: number; role?: string }> {
      const handle = createDatabase(database.url)
      const app = await buildApp({
        db: handle.db,
        dialect: handle.dialect,
        config: {
          authCacheTtlMs: 0,
          defaultRateLimitPerMinute: 100,
          bodyLimitBytes: 1024 * 1024,
          planWorkers: 0,
        },
      })
      try {
        const response = await app.inject({
          method: 'POST',
          url: '/v1/admin/session',
          payload: { email, password },
        })
        return { status: response.statusCode, role: response.json().data?.session.user.role }
      } finally {
        await app.close()
        await handle.destroy()
      }
    }

    it(
      'creates an ADMIN with a password given on stdin, who can sign in at once',
      async () => {
        const created = await cli
          .withStdin(`${PASSWORD}\n`)
          .cliJson(
            'users',
            'create',
            '--org',
            org.id,
            '--email',
            'Office@Example.com',
            '--name',
            'Olive Office',
            '--role',
            'ADMIN',
            '--password-stdin',
          )
        expect(created).toEqual({
          user: {
            id: expect.any(String),
            name: 'Olive Office',
            email: 'office@example.com',
            role: 'ADMIN',
            colour: expect.any(Number),
            isActive: true,
            hasPassword: true,
            createdAt: expect.any(String),
            updatedAt: expect.any(String),
          },
        })
        expect(await signInStatus('office@example.com', PASSWORD)).toEqual({ status: 200, role: 'ADMIN' })
        // The trailing newline of the input is not part of the password.
        expect((await signInStatus('office@example.com', `${PASSWORD}\n`)).status).toBe(401)
      },
      SLOW,
    )

    it(
      'creates a DISPATCHER with --password and prints who it made',
      async () => {
        const text = await cli.cli(
          'users',
          'create',
          '--org',
          org.id,
          '--email',
          'dispatch@example.com',
          '--name',
          'Dee',
          '--role',
          'DISPATCHER',
          '--password',
          PASSWORD,
        )
        expect(text).toMatch(
          /^Created DISPATCHER Dee <dispatch@example.com> \([0-9a-f-]{36}\); they can sign in/,
        )
        expect(await signInStatus('dispatch@example.com', PASSWORD)).toEqual({
          status: 200,
          role: 'DISPATCHER',
        })
      },
      SLOW,
    )

    it(
      'sets a new password, after which only the new one signs in',
      async () => {
        const text = await cli
          .withStdin('the replacement passphrase')
          .cli(
            'users',
            'set-password',
            '--org',
            org.id,
            '--email',
            'DISPATCH@example.com',
            '--password-stdin',
          )
        expect(text).toMatch(/^Password set for DISPATCHER Dee <dispatch@example.com>.*signed out$/m)
        expect((await signInStatus('dispatch@example.com', PASSWORD)).status).toBe(401)
        expect((await signInStatus('dispatch@example.com', 'the replacement passphrase')).status).toBe(200)
      },
      SLOW,
    )

    it(
      'refuses bad input with a message and changes nothing',
      async () => {
        const base = ['users', 'create', '--org', org.id, '--name', 'X', '--email', 'x@example.com']
        expect(await cli.cliFails(...base, '--role', 'OWNER', '--password', PASSWORD)).toMatch(
          /--role.*choices.*ADMIN, DISPATCHER, WORKER/,
        )
        expect(await cli.cliFails(...base, '--password', PASSWORD)).toMatch(/--role/)
        expect(await cli.cliFails(...base, '--role', 'ADMIN')).toMatch(/password is required/)
        expect(
          await cli
            .withStdin(PASSWORD)
            .cliFails(...base, '--role', 'ADMIN', '--password', PASSWORD, '--password-stdin'),
        ).toMatch(/either with --password or with --password-stdin/)
        expect(await cli.cliFails(...base, '--role', 'ADMIN', '--password', 'short')).toMatch(
          /at least 12 characters \(it has 5\)/,
        )
        expect(await cli.withStdin('\n').cliFails(...base, '--role', 'ADMIN', '--password-stdin')).toMatch(
          /at least 12/,
        )
        expect(
          await cli.cliFails(
            'users',
            'create',
            '--org',
            org.id,
            '--name',
            'X',
            '--email',
            'not-an-email',
            '--role',
            'ADMIN',
            '--password',
            PASSWORD,
          ),
        ).toMatch(/not an email address/)
        expect(
          await cli.cliFails(
            'users',
            'create',
            '--org',
            org.id,
            '--name',
            '  ',
            '--email',
            'y@example.com',
            '--role',
            'ADMIN',
            '--password',
            PASSWORD,
          ),
        ).toMatch(/--name must not be empty/)
        expect(
          await cli.cliFails(
            'users',
            'create',
            '--org',
            'nope',
            '--name',
            'X',
            '--email',
            'x@example.com',
            '--role',
            'ADMIN',
            '--password',
            PASSWORD,
          ),
        ).toMatch(/No organisation with id nope/)
        expect(
          await cli.cliFails(
            'users',
            'create',
            '--org',
            org.id,
            '--name',
            'X',
            '--email',
            'office@example.com',
            '--role',
            'ADMIN',
            '--password',
            PASSWORD,
          ),
        ).toMatch(/already has the email office@example.com/)
        expect(
          await cli.cliFails(
            'users',
            'set-password',
            '--org',
            org.id,
            '--email',
            'ghost@example.com',
            '--password',
            PASSWORD,
          ),
        ).toMatch(/No user with the email ghost@example.com/)
        expect((await signInStatus('x@example.com', PASSWORD)).status).toBe(401)
        expect((await signInStatus('office@example.com', PASSWORD)).status).toBe(200)
      },
      SLOW,
    )

    it(
      'gives the demo an admin, a dispatcher and a worker sign-in, new passwords on every run',
      async () => {
        const first = await cli.cliJson('demo', '--no-serve')
        expect(first.signIns).toEqual({
          admin: {
            email: 'alex.morgan@demo-plumbing.example',
            password: expect.stringMatching(/^demo-[\w-]{16}$/),
          },
          dispatcher: {
            email: 'rachel.moss@demo-plumbing.example',
            password: expect.stringMatching(/^demo-[\w-]{16}$/),
          },
          worker: {
            email: expect.stringMatching(/^[a-z]+\.[a-z]+@demo-plumbing\.example$/),
            password: expect.stringMatching(/^demo-[\w-]{16}$/),
          },
        })
        expect(await signInStatus(first.signIns.admin.email, first.signIns.admin.password)).toEqual({
          status: 200,
          role: 'ADMIN',
        })
        expect(await signInStatus(first.signIns.worker.email, first.signIns.worker.password)).toEqual({
          status: 200,
          role: 'WORKER',
        })
        const second = await cli.cliJson('demo', '--no-serve')
        expect(second.created).toBe(false)
        expect(
          (await signInStatus(first.signIns.dispatcher.email, first.signIns.dispatcher.password)).status,
        ).toBe(401)
        expect(
          await signInStatus(second.signIns.dispatcher.email, second.signIns.dispatcher.password),
        ).toEqual({
          status: 200,
          role: 'DISPATCHER',
        })
        // One admin, however many runs.
        const handle = createDatabase(database.url)
        try {
          const admins = await handle.db
            .selectFrom('users')
            .select('id')
            .where('organisation_id', '=', first.organisationId)
            .where('role', '=', 'ADMIN')
            .execute()
          expect(admins).toHaveLength(1)
        } finally {
          await handle.destroy()
        }
        const text = await cli.cli('demo', '--no-serve')
        expect(text).toMatch(/admin: {6}alex\.morgan@demo-plumbing\.example \/ demo-/)
        expect(text).toMatch(/dispatcher: rachel\.moss@demo-plumbing\.example \/ demo-/)
      },
      SLOW,
    )
  })
}
