// Two app instances on one PostgreSQL: the minute's refresh runs on the one holding the lease, and
// JOB_ETA_CHANGED is announced once even when both recompute the same change at the same moment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeLocation,
  makeShift,
  makeUser,
  makeVehicle,
  outboxEvents,
  setJobState,
} from '../../../test/factories.js'
import {
  createTestDatabaseUrl,
  DIALECTS,
  TEST_IP_RATE_LIMIT_PER_MINUTE,
  TEST_PASSWORD_PARAMS,
} from '../../../test/helpers.js'
import { type App, buildApp } from '../../app.js'
import { createDatabase, type DatabaseHandle } from '../../db/database.js'
import { createOrganisation } from '../organisations/service.js'
import { refreshEtas } from './service.js'

const describeOnPostgres = DIALECTS.includes('postgres') ? describe : describe.skip
const at = (hhmm: string) => Date.parse(`2026-11-26T${hhmm}:00Z`)

describeOnPostgres('postgres: the live day on two instances', () => {
  let database: { url: string; cleanup(): Promise<void> }
  const handles: DatabaseHandle[] = []
  const apps: App[] = []
  let now = at('06:00')

  async function instance(url: string): Promise<App> {
    const handle = createDatabase(url, { pgPoolSize: 4 })
    handles.push(handle)
    const app = await buildApp({
      db: handle.db,
      dialect: 'postgres',
      passwordParams: TEST_PASSWORD_PARAMS,
      clock: () => now,
      config: {
        authCacheTtlMs: 0,
        defaultRateLimitPerMinute: 100,
        bodyLimitBytes: 1024 * 1024,
        webhookDispatcher: false,
        planWorkers: 0,
        liveRefreshSeconds: 0,
        ipRateLimitPerMinute: TEST_IP_RATE_LIMIT_PER_MINUTE,
      },
    })
    await app.ready()
    apps.push(app)
    return app
  }

  beforeAll(async () => {
    database = await createTestDatabaseUrl('postgres')
    await instance(database.url)
    await instance(database.url)
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    for (const handle of handles) await handle.destroy()
    await database?.cleanup()
  })

  /** One worker on shift 08:00–16:00 (UTC) with ten stops, the first under way since 09:00. */
  async function day() {
    const db = handles[0]!.db
    const org = (await createOrganisation(db, { name: `Twin ${Math.random()}`, plan: 'PRO' })).id
    const depot = await makeLocation(db, org, { timezone: 'UTC' })
    const worker = await makeUser(db, org)
    const van = await makeVehicle(db, org, depot.id)
    const shift = await makeShift(
      db,
      org,
      { userId: worker.id, locationId: depot.id, vehicleId: van.id },
      { day: 'THURSDAY' },
    )
    const jobs: string[] = []
    for (let i = 0; i < 10; i++) {
      const start = new Date(at('09:00') + i * 45 * 60_000).toISOString()
      const id = `job-${org.slice(-6)}-${i}`
      await db
        .insertInto('jobs')
        .values({
          id,
          organisation_id: org,
          title: `Stop ${i}`,
          description: null,
          status: 'ASSIGNED',
          priority: 'NORMAL',
          customer_id: null,
          location_id: depot.id,
          job_latitude: String(53.5 + i * 0.01),
          job_longitude: '-2.2',
          service_duration: 1800,
          time_window_type: 'HARD',
          earliest_start: null,
          latest_end: null,
          scheduled_start: start,
          scheduled_end: new Date(Date.parse(start) + 1_800_000).toISOString(),
          assigned_user_id: worker.id,
          shift_id: shift.id,
          started_at: null,
          completed_at: null,
          actual_duration: null,
          created_at: start,
          updated_at: start,
          deleted_at: null,
        })
        .execute()
      jobs.push(id)
    }
    await setJobState(db, org, jobs[0]!, {
      status: 'IN_PROGRESS',
      startedAt: new Date(at('09:00')).toISOString(),
    })
    return { db, org, jobs }
  }

  const etaEvents = async (db: DatabaseHandle['db'], org: string) =>
    (await outboxEvents(db, org)).filter((e) => e.event === 'JOB_ETA_CHANGED')

  it('runs the minute refresh on one instance at a time, announcing each change once', async () => {
    const { db, org, jobs } = await day()
    // The first job overruns by three hours: every later stop moves by far more than 15 minutes.
    now = at('12:30')
    const ran = await Promise.all(apps.map((app) => app.live.tick()))
    expect(ran.filter(Boolean)).toHaveLength(1)
    const events = await etaEvents(db, org)
    expect(events.map((e) => e.data.jobId).sort()).toEqual(jobs.slice(1).sort())
    // The lease holder keeps it; the other stays out until it expires (1.5 periods).
    expect((await Promise.all(apps.map((app) => app.live.tick()))).filter(Boolean)).toHaveLength(1)
    now = at('12:32')
    const holder = ran.indexOf(true)
    expect(await apps[1 - holder]!.live.tick()).toBe(true)
    expect(await etaEvents(db, org)).toHaveLength(9)
  })

  it('announces once when both instances recompute the same change at once', async () => {
    const { db, org, jobs } = await day()
    const together = async () => {
      const counts = await Promise.all(
        handles.flatMap((handle) =>
          [0, 1, 2, 3, 4, 5, 6, 7].map(() => refreshEtas(handle.db, org, { thresholdMinutes: 15 }, now)),
        ),
      )
      return counts.reduce((a, b) => a + b, 0)
    }
    // First announcements (each job's row is created), then a second change of every one.
    now = at('12:30')
    expect(await together()).toBe(9)
    now = at('14:30')
    expect(await together()).toBe(9)
    const events = await etaEvents(db, org)
    expect(events).toHaveLength(18)
    expect(new Set(events.map((e) => `${e.data.jobId} ${e.data.eta}`)).size).toBe(18)
    expect(
      events
        .slice(9)
        .map((e) => e.data.jobId)
        .sort(),
    ).toEqual(jobs.slice(1).sort())
  })
})
