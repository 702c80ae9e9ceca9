// What the fuzzer works on: the organisation it attacks from (with a row of every kind, in every job
// state), another organisation whose ids it throws at the first one's routes, API keys in every
// condition (admin, normal rate limit, read-only, non-admin, revoked, expired, on a FREE plan), and
// dashboard sessions (an ADMIN, a DISPATCHER, an ADMIN on a FREE plan).
import type { JobStatus } from '../../src/db/types.js'
import { revokeApiKey } from '../../src/modules/api-keys/service.js'
import {
  makeCapacityDimension,
  makeShift,
  makeShiftReferences,
  makeTag,
  makeUser,
  makeVehicle,
  setJobState,
} from '../factories.js'
import {
  adminClient,
  client,
  createKey,
  createTenant,
  type TestContext,
  type TestTenant,
} from '../helpers.js'
import { makeDashboardUser, type SignedIn, signIn } from '../sessions.js'
import type { IdRef, Resource } from './values.js'

export type IdPools = Record<Resource, string[]>
type SessionVariant = 'admin' | 'dispatcher' | 'freePlan'

/**
 * Fuzzed sign-ins all come from 127.0.0.1 and soon exhaust its failure budget: the fuzzer's own
 * sessions sign in from another address.
 */
const SIGN_IN_ADDRESS = '10.255.0.1'

const emptyPools = (): IdPools => ({
  jobs: [],
  customers: [],
  locations: [],
  vehicles: [],
  shifts: [],
  users: [],
  tags: [],
  capacityDimensions: [],
  apiKeys: [],
  automations: [],
  executions: [],
  routePlans: [],
  formTemplates: [],
  absences: [],
  jobSeries: [],
  imports: [],
  attachments: [],
})

export interface World {
  t: TestContext
  organisationId: string
  /** Authorization header values by variant. */
  keys: Record<
    'admin' | 'normalLimit' | 'readOnly' | 'readWrite' | 'revoked' | 'expired' | 'freePlan',
    string
  >
  /** The secret part of the admin key (for malformed variants). */
  adminKey: string
  /** Live dashboard sessions; `refreshSessions` signs in again where one has ended. */
  sessions: Record<SessionVariant, SignedIn>
  sessionUsers: Record<SessionVariant, { email: string; password: string }>
  own: IdPools
  foreign: IdPools
  /** Every id of the other organisation: none may ever show up in an answer to this one. */
  foreignIds: Set<string>
  seededJobs: SeededJob[]
}

/** Ids of rows created through the API are added to the pools, up to this many per resource. */
const MAX_POOL = 40

export function pickId(world: World, ref: IdRef): string {
  const pool = (ref.owner === 'own' ? world.own : world.foreign)[ref.resource]
  return pool[ref.index % Math.max(pool.length, 1)] ?? '01900000-0000-7000-8000-000000000000'
}

export function remember(world: World, resource: Resource, id: string): void {
  const pool = world.own[resource]
  if (pool.length < MAX_POOL && !pool.includes(id)) pool.push(id)
}

type JobState = Parameters<typeof setJobState>[3]
interface SeededJob {
  id: string
  state: JobState
}

function seededState(status: JobStatus, userId: string, shiftId: string): JobState {
  if (status === 'CREATED')
    return {
      status,
      assignedUserId: null,
      shiftId: null,
      scheduledStart: null,
      scheduledEnd: null,
      startedAt: null,
      completedAt: null,
      actualDuration: null,
    }
  return {
    status,
    assignedUserId: userId,
    shiftId,
    scheduledStart: '2026-11-23T10:00:00.000Z',
    scheduledEnd: '2026-11-23T11:00:00.000Z',
    startedAt: status === 'ASSIGNED' ? null : '2026-11-23T10:00:00.000Z',
    completedAt: status === 'COMPLETED' ? '2026-11-23T11:00:00.000Z' : null,
    actualDuration: status === 'COMPLETED' ? 3600 : null,
  }
}

async function resetJobStates(db: TestContext['database']['db'], organisationId: string, jobs: SeededJob[]) {
  for (const job of jobs) await setJobState(db, organisationId, job.id, job.state)
}

/**
 * Puts the seeded jobs back in their states (a deleted one stays deleted), so every operation finds
 * a job in each state however the operations before it moved them.
 */
export function resetSeededJobs(world: World): Promise<void> {
  return resetJobStates(world.t.database.db, world.organisationId, world.seededJobs)
}

async function seedOrganisation(
  t: TestContext,
  tenant: TestTenant,
): Promise<{ pools: IdPools; seeded: SeededJob[] }> {
  const db = t.database.db
  const org = tenant.organisationId
  const pools = emptyPools()
  const refs = await makeShiftReferences(db, org)
  const second = await makeShiftReferences(db, org, {
    location: 'South Depot',
    user: 'Ana',
    vehicle: 'Van 2',
  })
  const spareUser = await makeUser(db, org, { name: 'Spare Worker' })
  const tags = [await makeTag(db, org, 'fragile'), await makeTag(db, org, 'urgent')]
  const dimensions = [
    await makeCapacityDimension(db, org, 'weight_kg'),
    await makeCapacityDimension(db, org, 'pallets'),
  ]
  const loadedVehicle = await makeVehicle(db, org, refs.location.id, {
    name: 'Loaded van',
    tagIds: [tags[0]!.id],
    capacities: [{ dimensionId: dimensions[0]!.id, maxValue: 500 }],
  })
  const shifts = [
    await makeShift(db, org, refs.refs, {
      breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
    }),
    await makeShift(db, org, second.refs, { day: 'FRIDAY' }),
  ]
  pools.locations.push(refs.location.id, second.location.id)
  pools.users.push(refs.user.id, second.user.id, spareUser.id)
  pools.vehicles.push(refs.vehicle.id, second.vehicle.id, loadedVehicle.id)
  pools.shifts.push(...shifts.map((s) => s.id))
  pools.tags.push(...tags.map((tag) => tag.id))
  pools.capacityDimensions.push(...dimensions.map((d) => d.id))

  const api = client(t, tenant.headers)
  const admin = adminClient(t, tenant.headers)
  // An automation whose deliveries fail fast (nothing listens on port 9), so executions exist.
  const automation = await admin.post('/automations', {
    name: 'Seed hook',
    event: 'JOB_CREATED',
    url: 'http://127.0.0.1:9/hook',
  })
  pools.automations.push(automation.body.data.automation.id)
  for (const body of [
    { name: 'Acme Bakery', latitude: 53.4794, longitude: -2.2453, address: '12 Deansgate' },
    { name: 'Café Ünïcødé 🚐', latitude: -33.8688, longitude: 151.2093 },
  ]) {
    pools.customers.push((await api.post('/customers', body)).body.data.customer.id)
  }
  // Every state, the ones lifecycle actions consume twice; the last job is deleted below.
  const states = [
    'CREATED',
    'ASSIGNED',
    'IN_PROGRESS',
    'ASSIGNED',
    'IN_PROGRESS',
    'COMPLETED',
    'CANCELLED',
    'CREATED',
  ] as const
  const seeded: SeededJob[] = []
  for (const [i, status] of states.entries()) {
    const job = (
      await api.post('/jobs', {
        title: `Seed job ${i} (${status})`,
        customerId: pools.customers[i % 2],
        locationId: refs.location.id,
        earliestStart: '2026-11-23T09:00:00Z',
        latestEnd: '2026-11-23T17:00:00Z',
      })
    ).body.data.job
    pools.jobs.push(job.id)
    seeded.push({ id: job.id, state: seededState(status, refs.user.id, shifts[0]!.id) })
  }
  await resetJobStates(db, org, seeded)
  await admin.put(`/jobs/${pools.jobs[0]}/tags`, { tagIds: [tags[1]!.id] })
  await admin.put(`/jobs/${pools.jobs[0]}/demands`, {
    demands: [{ capacityDimensionId: dimensions[1]!.id, requiredValue: 2 }],
  })
  await admin.post(`/jobs/${pools.jobs[0]}/form-submissions`, { form: 'check', answers: { ok: true } })
  // The last job is deleted: its id must answer 404 everywhere.
  await api.delete(`/jobs/${pools.jobs.at(-1)}`)
  await t.app.webhooks.dispatcher.drain()
  const executions = (await admin.get('/executions?limit=100')).body.data.executions as { id: string }[]
  pools.executions.push(...executions.map((e) => e.id))
  if (pools.executions.length === 0) throw new Error('seeding made no webhook executions')
  // Keys the fuzzer may rotate and revoke (never the keys it sends).
  // A queued plan (test apps run no plan workers): its id answers the route-plan routes.
  const plan = await admin.post('/route-plans', { date: '2026-11-23', mode: 'REPLAN_ALL' })
  if (plan.status !== 202) throw new Error(`seeding a route plan answered ${plan.status}`)
  pools.routePlans.push(plan.body.data.routePlan.id)
  for (let i = 0; i < 3; i++) pools.apiKeys.push((await createKey(t, org, { scopes: ['read'] })).id)
  const template = await admin.post('/form-templates', {
    name: 'Check',
    appliesTo: 'TAGGED_JOBS',
    tagId: tags[0]!.id,
    fields: [{ key: 'ok', label: 'OK?', type: 'YES_NO' }],
  })
  if (template.status !== 201) throw new Error(`seeding a form template answered ${template.status}`)
  pools.formTemplates.push(template.body.data.formTemplate.id)
  const absence = await admin.post(`/team/users/${refs.user.id}/absences`, {
    startDate: '2026-11-30',
    endDate: '2026-12-02',
    reason: 'HOLIDAY',
  })
  if (absence.status !== 201) throw new Error(`seeding an absence answered ${absence.status}`)
  pools.absences.push(absence.body.data.absence.id)
  const series = await admin.post('/job-series', {
    job: { title: 'Weekly check', locationId: refs.location.id, tagIds: [tags[0]!.id] },
    rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=20',
    startDate: '2026-11-09',
    window: { startTime: '09:00', endTime: '11:00', type: 'HARD' },
  })
  if (series.status !== 201) throw new Error(`seeding a job series answered ${series.status}`)
  pools.jobSeries.push(series.body.data.series.id)
  const started = await admin.post('/imports', { kind: 'customers', dryRun: true })
  if (started.status !== 201) throw new Error(`seeding an import answered ${started.status}`)
  pools.imports.push(started.body.data.import.id)
  // An attachment (a raw upload: the body is the file's bytes, not JSON) on the first job.
  const attachment = await t.app.inject({
    method: 'POST',
    url: `/v1/admin/jobs/${pools.jobs[0]}/attachments?kind=FILE&filename=quote.pdf`,
    headers: { ...tenant.headers, 'content-type': 'application/pdf' },
    payload: Buffer.from('%PDF-1.4\n%%EOF\n'),
  })
  if (attachment.statusCode !== 201)
    throw new Error(`seeding an attachment answered ${attachment.statusCode}`)
  pools.attachments.push(attachment.json().data.attachment.id)
  return { pools, seeded }
}

export async function createWorld(t: TestContext): Promise<World> {
  const adminScopes = ['read', 'write', 'admin'] as const
  const tenant = await createTenant(t, { scopes: [...adminScopes], rateLimitPerMinute: 100_000_000 })
  const other = await createTenant(t, { scopes: [...adminScopes] })
  const org = tenant.organisationId
  const { pools: own, seeded } = await seedOrganisation(t, tenant)
  const { pools: foreign } = await seedOrganisation(t, other)
  const revoked = await createKey(t, org, { scopes: [...adminScopes] })
  await revokeApiKey(t.database.db, org, revoked.id)
  const bearer = (key: { headers: { authorization: string } }) => key.headers.authorization
  const freePlan = await createTenant(t, { plan: 'FREE', scopes: [...adminScopes] })
  const keys = {
    admin: tenant.headers.authorization,
    normalLimit: bearer(await createKey(t, org, { scopes: [...adminScopes], rateLimitPerMinute: 100 })),
    readOnly: bearer(await createKey(t, org, { scopes: ['read'] })),
    readWrite: bearer(await createKey(t, org, { scopes: ['read', 'write'] })),
    revoked: bearer(revoked),
    expired: bearer(
      await createKey(t, org, { scopes: [...adminScopes], expiresAt: '2020-01-01T00:00:00.000Z' }),
    ),
    freePlan: freePlan.headers.authorization,
  }
  const foreignIds = new Set([other.organisationId, ...Object.values(foreign).flat()])
  const sessionUsers = {
    admin: await makeDashboardUser(t, org, { email: 'fuzz-admin@fuzz.example' }),
    dispatcher: await makeDashboardUser(t, org, {
      email: 'fuzz-dispatcher@fuzz.example',
      role: 'DISPATCHER',
    }),
    freePlan: await makeDashboardUser(t, freePlan.organisationId, { email: 'fuzz-free@fuzz.example' }),
  }
  const sessions = {
    admin: await signIn(t, sessionUsers.admin, {}, SIGN_IN_ADDRESS),
    dispatcher: await signIn(t, sessionUsers.dispatcher, {}, SIGN_IN_ADDRESS),
    freePlan: await signIn(t, sessionUsers.freePlan, {}, SIGN_IN_ADDRESS),
  }
  return {
    t,
    organisationId: org,
    keys,
    adminKey: tenant.key,
    own,
    foreign,
    foreignIds,
    seededJobs: seeded,
    sessions,
    sessionUsers,
  }
}

/** Signs in again wherever a fuzzed request ended a session (sign-out, a password set). */
export async function refreshSessions(world: World): Promise<void> {
  for (const variant of Object.keys(world.sessions) as SessionVariant[]) {
    const current = await world.t.app.inject({
      method: 'GET',
      url: '/v1/admin/session',
      headers: { cookie: `fs_session=${world.sessions[variant].cookie}` },
    })
    if (current.statusCode === 200) continue
    world.sessions[variant] = await signIn(world.t, world.sessionUsers[variant], {}, SIGN_IN_ADDRESS)
  }
}
