// The demo's sign-ins: its dispatcher (seeded with the team), an office admin, and the worker with the
// most jobs today (for My day on a phone), each given a fresh random password on every run. Only hashes are stored, so a password printed by an
// earlier run cannot be printed again: like the demo keys, each run replaces them (which also signs
// the two out of any session an earlier run left open).
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/types.js'
import { createFormTemplate } from '../modules/form-templates/service.js'
import { createUser, findUserByEmail, setUserPassword } from '../modules/organisations/users-service.js'
import { DEMO_EMAIL_DOMAIN, DISPATCHER, WORKERS } from './demo-data.js'

export interface DemoSignIn {
  email: string
  password: string
}

const ADMIN = { name: 'Alex Morgan', role: 'ADMIN' } as const

/** As the seed spells team emails: `rachel.moss@demo-plumbing.example`. */
const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@${DEMO_EMAIL_DOMAIN}`

/** Readable enough to type, 96 random bits. */
const newPassword = () => `demo-${randomBytes(12).toString('base64url')}`

async function signInFor(
  db: Kysely<Database>,
  organisationId: string,
  person: { name: string; role: 'ADMIN' | 'DISPATCHER' | 'WORKER' },
): Promise<DemoSignIn> {
  const email = emailOf(person.name)
  // A demo database seeded before dashboard sign-in has the dispatcher but not the admin.
  const user =
    (await findUserByEmail(db, organisationId, email)) ??
    (await createUser(db, organisationId, { name: person.name, email, role: person.role }))
  const password = newPassword()
  await setUserPassword(db, organisationId, user.id, password)
  return { email, password }
}

/**
 * The seeded worker with the most jobs scheduled today (UTC) — of those, one with a job that needs
 * the demo's form — else the first one.
 */
async function busiestWorkerToday(db: Kysely<Database>, organisationId: string): Promise<string> {
  const today = new Date().toISOString().slice(0, 10)
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString()
  const [busiest] = await db
    .selectFrom('jobs')
    .innerJoin('users', (join) =>
      join
        .onRef('users.id', '=', 'jobs.assigned_user_id')
        .onRef('users.organisation_id', '=', 'jobs.organisation_id'),
    )
    .leftJoin('job_tags', (join) =>
      join
        .onRef('job_tags.job_id', '=', 'jobs.id')
        .onRef('job_tags.organisation_id', '=', 'jobs.organisation_id')
        .on('job_tags.tag_id', 'in', (eb) =>
          eb
            .selectFrom('tags')
            .select('tags.id')
            .where('tags.organisation_id', '=', organisationId)
            .where('tags.name', '=', DEMO_FORM_TAG),
        ),
    )
    .select((eb) => [
      'users.name',
      eb.fn.countAll<number>().as('jobs'),
      eb.fn.count<number>('job_tags.tag_id').as('tagged'),
    ])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.deleted_at', 'is', null)
    .where('users.role', '=', 'WORKER')
    .where('jobs.scheduled_start', '>=', `${today}T00:00:00.000Z`)
    .where('jobs.scheduled_start', '<', tomorrow)
    .groupBy('users.name')
    .orderBy('jobs', 'desc')
    .orderBy('tagged', 'desc')
    .orderBy('users.name')
    .limit(1)
    .execute()
  return busiest?.name ?? (WORKERS[0]?.name as string)
}

/** The demo's form: a gas safety record on every gas-safe job, so My day has a form to fill in. */
export const DEMO_FORM_TAG = 'gas-safe'

export async function ensureDemoFormTemplate(db: Kysely<Database>, organisationId: string): Promise<void> {
  const name = 'Gas safety record'
  const existing = await db
    .selectFrom('form_templates')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('name', '=', name)
    .executeTakeFirst()
  if (existing) return
  const tag = await db
    .selectFrom('tags')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('name', '=', DEMO_FORM_TAG)
    .executeTakeFirst()
  if (!tag) return
  await createFormTemplate(db, organisationId, {
    name,
    description: 'Required on gas work before the job can be completed.',
    appliesTo: 'TAGGED_JOBS',
    tagId: tag.id,
    fields: [
      { key: 'appliance', label: 'Appliance', type: 'TEXT', required: true },
      {
        key: 'pressureMbar',
        label: 'Working pressure (mbar)',
        type: 'NUMBER',
        required: true,
        min: 0,
        max: 100,
      },
      { key: 'safe', label: 'Appliance safe to use?', type: 'YES_NO', required: true },
      {
        key: 'flue',
        label: 'Flue check',
        type: 'CHOICE',
        required: true,
        options: ['Pass', 'Fail', 'Not applicable'],
      },
      { key: 'notes', label: 'Notes', type: 'LONG_TEXT' },
    ],
  })
}

export async function resetDemoSignIns(
  db: Kysely<Database>,
  organisationId: string,
): Promise<{ admin: DemoSignIn; dispatcher: DemoSignIn; worker: DemoSignIn }> {
  return {
    admin: await signInFor(db, organisationId, ADMIN),
    dispatcher: await signInFor(db, organisationId, { name: DISPATCHER.name, role: 'DISPATCHER' }),
    worker: await signInFor(db, organisationId, {
      name: await busiestWorkerToday(db, organisationId),
      role: 'WORKER',
    }),
  }
}
