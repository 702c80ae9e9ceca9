import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeShift,
  makeShiftReferences,
  setJobState,
  setUserActive,
  setVehicleActive,
} from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

type Status = 'CREATED' | 'ASSIGNED' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED'
type Action = 'assign' | 'unassign' | 'start' | 'complete' | 'cancel'
const STATUSES: Status[] = ['CREATED', 'ASSIGNED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED']
const ACTIONS: Action[] = ['assign', 'unassign', 'start', 'complete', 'cancel']

// The lifecycle of DESIGN.md, written out independently of lifecycle.ts so that a wrong table fails.
const ALLOWED: Record<Action, Partial<Record<Status, { to: Status; events: string[] }>>> = {
  assign: {
    CREATED: { to: 'ASSIGNED', events: ['JOB_ASSIGNED', 'STATUS_CHANGED'] },
    // Re-assigned to another worker: the previous worker loses the job first; the status stays.
    ASSIGNED: { to: 'ASSIGNED', events: ['JOB_UNASSIGNED', 'JOB_ASSIGNED'] },
  },
  unassign: { ASSIGNED: { to: 'CREATED', events: ['JOB_UNASSIGNED', 'STATUS_CHANGED'] } },
  start: { ASSIGNED: { to: 'IN_PROGRESS', events: ['STATUS_CHANGED'] } },
  complete: { IN_PROGRESS: { to: 'COMPLETED', events: ['JOB_COMPLETED', 'STATUS_CHANGED'] } },
  cancel: {
    CREATED: { to: 'CANCELLED', events: ['JOB_CANCELLED', 'STATUS_CHANGED'] },
    ASSIGNED: { to: 'CANCELLED', events: ['JOB_CANCELLED', 'STATUS_CHANGED'] },
    IN_PROGRESS: { to: 'CANCELLED', events: ['JOB_CANCELLED', 'STATUS_CHANGED'] },
  },
}
const REQUIRED_FROM: Record<Action, string> = {
  assign: 'CREATED or ASSIGNED',
  unassign: 'ASSIGNED',
  start: 'ASSIGNED',
  complete: 'IN_PROGRESS',
  cancel: 'CREATED or ASSIGNED or IN_PROGRESS',
}

const START = '2026-11-23T09:00:00.000Z'
const END = '2026-11-23T10:30:00.000Z'
const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin job lifecycle`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    /** A tenant with a customer, two workers each with a shift, and a CREATED job. */
    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const org = tenant.organisationId
      const db = t.database.db
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const ana = await makeShiftReferences(db, org, { user: 'Ana Driver', email: `ana-${org}@example.com` })
      const anaShift = await makeShift(db, org, ana.refs)
      const ben = await makeShiftReferences(db, org, { user: 'Ben Fitter', vehicle: 'Van 2' })
      const benShift = await makeShift(db, org, ben.refs)
      const customer = (
        await api.post('/customers', { name: 'Acme Bakery', latitude: 53.48, longitude: -2.24 })
      ).body.data.customer
      const job = (await api.post('/jobs', { title: 'Service boiler', customerId: customer.id })).body.data
        .job
      const seen = new Set<string>()
      /** Outbox rows written since the last call, in outbox order (the order they were recorded in). */
      const drain = async () => {
        const rows = await db
          .selectFrom('outbox_events')
          .selectAll()
          .where('organisation_id', '=', org)
          .orderBy('occurred_at')
          .orderBy('id')
          .execute()
        const fresh = rows.filter((row) => !seen.has(row.id))
        for (const row of fresh) seen.add(row.id)
        return fresh.map((row) => ({
          event: row.event,
          occurredAt: row.occurred_at,
          data: JSON.parse(row.data),
        }))
      }
      // Creating the job recorded JOB_CREATED (events.test.ts checks it); transitions start afresh.
      expect((await drain()).map((e) => e.event)).toEqual(['JOB_CREATED'])
      return { tenant, org, api, admin, ana, anaShift, ben, benShift, customer, job, drain }
    }
    type Setup = Awaited<ReturnType<typeof setup>>

    const assignTo = (who: Setup['ana'], shiftId: string | null = null) => ({
      userId: who.user.id,
      ...(shiftId && { shiftId }),
      scheduledStart: START,
      scheduledEnd: END,
    })

    /** Puts the job in `status` directly in the database, with the fields that status implies. */
    async function putInState(s: Setup, status: Status) {
      const assigned = status !== 'CREATED' && status !== 'CANCELLED'
      await setJobState(t.database.db, s.org, s.job.id, {
        status,
        ...(assigned && {
          assignedUserId: s.ana.user.id,
          shiftId: s.anaShift.id,
          scheduledStart: START,
          scheduledEnd: END,
        }),
        ...((status === 'IN_PROGRESS' || status === 'COMPLETED') && {
          startedAt: '2026-11-23T09:05:00.000Z',
        }),
        ...(status === 'COMPLETED' && { completedAt: '2026-11-23T10:05:00.000Z', actualDuration: 3600 }),
      })
    }

    function perform(s: Setup, action: Action) {
      const url = `/jobs/${s.job.id}/${action}`
      // Re-assigning goes to the other worker, so that it is a real change.
      return action === 'assign' ? s.admin.post(url, assignTo(s.ben, s.benShift.id)) : s.admin.post(url)
    }

    const cases = STATUSES.flatMap((status) =>
      ACTIONS.map((action) => [status, action, ALLOWED[action][status] ?? null] as const),
    )
    it.each(cases)('from %s, %s → %j', async (status, action, allowed) => {
      const s = await setup()
      await putInState(s, status)
      const before = (await s.api.get(`/jobs/${s.job.id}`)).body.data.job
      const res = await perform(s, action)
      const events = await s.drain()
      if (allowed) {
        expect(res.status).toBe(200)
        expect(res.body.data.job.status).toBe(allowed.to)
        expect(events.map((e) => e.event)).toEqual(allowed.events)
        for (const e of events) {
          expect(e.data).toMatchObject({ jobId: s.job.id, title: 'Service boiler', status: allowed.to })
          expect(e.occurredAt).toBe(res.body.data.job.updatedAt)
        }
        expect((await s.api.get(`/jobs/${s.job.id}`)).body.data.job).toEqual(res.body.data.job)
      } else {
        expect(res.status).toBe(422)
        expect(res.body).toEqual({
          error: `Cannot ${action} a job that is ${status}; ${action} is allowed only from ${REQUIRED_FROM[action]}`,
          code: 'INVALID_TRANSITION',
        })
        expect(events).toEqual([])
        expect((await s.api.get(`/jobs/${s.job.id}`)).body.data.job).toEqual(before)
      }
    })

    it('walks a job through its life; each step sets its fields, writes its events and shows in the public API', async () => {
      const s = await setup()
      const { api, admin, job, ana, anaShift, customer, drain } = s
      const subject = { jobId: job.id, title: 'Service boiler' }
      await pause()

      // assign
      const assigned = await admin.post(`/jobs/${job.id}/assign`, {
        userId: ana.user.id,
        shiftId: anaShift.id,
        scheduledStart: '2026-11-23T10:00:00+01:00',
        scheduledEnd: '2026-11-23T11:30:00+01:00',
      })
      expect(assigned.status).toBe(200)
      const a = assigned.body.data.job
      expect(assigned.body).toEqual({
        data: {
          job: {
            ...job,
            status: 'ASSIGNED',
            assignedUserId: ana.user.id,
            assignedUser: { id: ana.user.id, name: 'Ana Driver', email: ana.user.email },
            shiftId: anaShift.id,
            scheduledStart: START,
            scheduledEnd: END,
            updatedAt: expect.any(String),
          },
        },
        message: 'Success',
      })
      expect(a.updatedAt > job.updatedAt).toBe(true)
      expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(a)
      const listed = (await api.get('/jobs?status=ASSIGNED')).body.data.jobs
      expect(listed.map((j: { id: string; assignedUserId: string }) => [j.id, j.assignedUserId])).toEqual([
        [job.id, ana.user.id],
      ])
      expect(await drain()).toEqual([
        {
          event: 'JOB_ASSIGNED',
          occurredAt: a.updatedAt,
          data: {
            ...subject,
            status: 'ASSIGNED',
            customerId: customer.id,
            assignedUserId: ana.user.id,
            shiftId: anaShift.id,
            scheduledStart: START,
            scheduledEnd: END,
          },
        },
        {
          event: 'STATUS_CHANGED',
          occurredAt: a.updatedAt,
          data: { ...subject, status: 'ASSIGNED', previousStatus: 'CREATED', changedAt: a.updatedAt },
        },
      ])

      // Assigning the same plan again changes nothing and emits nothing.
      await pause()
      const again = await admin.post(`/jobs/${job.id}/assign`, assignTo(ana, anaShift.id))
      expect(again.body.data.job).toEqual(a)
      expect(await drain()).toEqual([])

      // start
      await pause()
      const started = await admin.post(`/jobs/${job.id}/start`, {})
      expect(started.status).toBe(200)
      const b = started.body.data.job
      expect(b).toEqual({
        ...a,
        status: 'IN_PROGRESS',
        startedAt: b.updatedAt,
        startRecordedAt: b.updatedAt,
        updatedAt: expect.any(String),
      })
      expect(b.updatedAt > a.updatedAt).toBe(true)
      expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(b)
      expect(await drain()).toEqual([
        {
          event: 'STATUS_CHANGED',
          occurredAt: b.updatedAt,
          data: { ...subject, status: 'IN_PROGRESS', previousStatus: 'ASSIGNED', changedAt: b.updatedAt },
        },
      ])

      // complete
      await new Promise((resolve) => setTimeout(resolve, 1100))
      const completed = await admin.post(`/jobs/${job.id}/complete`)
      expect(completed.status).toBe(200)
      const c = completed.body.data.job
      const seconds = Math.floor((Date.parse(c.completedAt) - Date.parse(b.startedAt)) / 1000)
      expect(seconds).toBeGreaterThanOrEqual(1)
      expect(c).toEqual({
        ...b,
        status: 'COMPLETED',
        completedAt: c.updatedAt,
        completeRecordedAt: c.updatedAt,
        actualDuration: seconds,
        updatedAt: expect.any(String),
      })
      expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(c)
      const events = await drain()
      expect(events).toEqual([
        {
          event: 'JOB_COMPLETED',
          occurredAt: c.updatedAt,
          data: expect.any(Object),
        },
        {
          event: 'STATUS_CHANGED',
          occurredAt: c.updatedAt,
          data: { ...subject, status: 'COMPLETED', previousStatus: 'IN_PROGRESS', changedAt: c.updatedAt },
        },
      ])
      // Spec §6's six fields, in this order, then ours: the attachments it was completed with.
      expect(Object.keys(events[0]?.data)).toEqual([
        'jobId',
        'title',
        'status',
        'customerId',
        'assignedUserId',
        'completedAt',
        'attachments',
      ])
      expect(events[0]?.data).toEqual({
        ...subject,
        status: 'COMPLETED',
        customerId: customer.id,
        assignedUserId: ana.user.id,
        completedAt: c.completedAt,
        attachments: [],
      })

      // A completed job is read-only through the public API, and has no further transitions.
      const patch = await api.patch(`/jobs/${job.id}`, { title: 'Too late' })
      expect(patch.status).toBe(422)
      expect(patch.body.code).toBe('TERMINAL_STATE')
      expect((await admin.post(`/jobs/${job.id}/cancel`)).body.code).toBe('INVALID_TRANSITION')
      expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(c)
      expect(await drain()).toEqual([])
    })

    it('actualDuration counts whole seconds from startedAt', async () => {
      const s = await setup()
      await putInState(s, 'IN_PROGRESS')
      const startedAt = new Date(Date.now() - 90 * 60_000 - 400).toISOString()
      await setJobState(t.database.db, s.org, s.job.id, { startedAt })
      const job = (await s.admin.post(`/jobs/${s.job.id}/complete`, {})).body.data.job
      expect(job.actualDuration).toBe(
        Math.floor((Date.parse(job.completedAt) - Date.parse(startedAt)) / 1000),
      )
      expect(job.actualDuration).toBeGreaterThanOrEqual(5400)
      expect(job.actualDuration).toBeLessThan(5460)
    })

    it('re-assigns an ASSIGNED job to another worker: JOB_UNASSIGNED, then JOB_ASSIGNED, no STATUS_CHANGED', async () => {
      const s = await setup()
      await putInState(s, 'ASSIGNED')
      const res = await s.admin.post(`/jobs/${s.job.id}/assign`, {
        userId: s.ben.user.id,
        scheduledStart: '2026-11-24T08:00:00Z',
        scheduledEnd: '2026-11-24T09:00:00Z',
      })
      expect(res.status).toBe(200)
      const job = res.body.data.job
      expect(job).toMatchObject({
        status: 'ASSIGNED',
        assignedUserId: s.ben.user.id,
        assignedUser: { id: s.ben.user.id, name: 'Ben Fitter', email: s.ben.user.email },
        shiftId: null,
        scheduledStart: '2026-11-24T08:00:00.000Z',
        scheduledEnd: '2026-11-24T09:00:00.000Z',
      })
      const subject = { jobId: s.job.id, title: 'Service boiler', status: 'ASSIGNED' }
      expect(await s.drain()).toEqual([
        {
          event: 'JOB_UNASSIGNED',
          occurredAt: job.updatedAt,
          data: { ...subject, previousAssignedUserId: s.ana.user.id },
        },
        {
          event: 'JOB_ASSIGNED',
          occurredAt: job.updatedAt,
          data: {
            ...subject,
            customerId: s.customer.id,
            assignedUserId: s.ben.user.id,
            shiftId: null,
            scheduledStart: '2026-11-24T08:00:00.000Z',
            scheduledEnd: '2026-11-24T09:00:00.000Z',
          },
        },
      ])
    })

    it('re-schedules the same worker: JOB_ASSIGNED alone', async () => {
      const s = await setup()
      await putInState(s, 'ASSIGNED')
      const res = await s.admin.post(`/jobs/${s.job.id}/assign`, {
        userId: s.ana.user.id,
        shiftId: s.anaShift.id,
        scheduledStart: '2026-11-30T08:00:00Z',
        scheduledEnd: '2026-11-30T09:00:00Z',
      })
      expect(res.status).toBe(200)
      const job = res.body.data.job
      expect(await s.drain()).toEqual([
        {
          event: 'JOB_ASSIGNED',
          occurredAt: job.updatedAt,
          data: {
            jobId: s.job.id,
            title: 'Service boiler',
            status: 'ASSIGNED',
            customerId: s.customer.id,
            assignedUserId: s.ana.user.id,
            shiftId: s.anaShift.id,
            scheduledStart: '2026-11-30T08:00:00.000Z',
            scheduledEnd: '2026-11-30T09:00:00.000Z',
          },
        },
      ])
    })

    it('moves a job between workers: each step emits exactly its events, and frees the old shift', async () => {
      const s = await setup()
      const names = async () =>
        (await s.drain()).map(
          (e) =>
            `${e.event}:${e.data.assignedUserId ?? e.data.previousAssignedUserId ?? e.data.previousStatus}`,
        )
      expect((await s.admin.post(`/jobs/${s.job.id}/assign`, assignTo(s.ana, s.anaShift.id))).status).toBe(
        200,
      )
      expect(await names()).toEqual([`JOB_ASSIGNED:${s.ana.user.id}`, 'STATUS_CHANGED:CREATED'])

      // Ana's shift cannot pass to Ben while her job sits on it.
      const busy = await s.admin.patch(`/shifts/${s.anaShift.id}`, { userId: s.ben.user.id })
      expect(busy.status).toBe(409)
      expect(busy.body.code).toBe('SHIFT_IN_USE')
      expect(busy.body.error).toContain(`${s.job.id} (ASSIGNED)`)

      expect((await s.admin.post(`/jobs/${s.job.id}/assign`, assignTo(s.ben, s.benShift.id))).status).toBe(
        200,
      )
      expect(await names()).toEqual([`JOB_UNASSIGNED:${s.ana.user.id}`, `JOB_ASSIGNED:${s.ben.user.id}`])
      // The same worker on another day: JOB_ASSIGNED alone.
      const later = {
        ...assignTo(s.ben, s.benShift.id),
        scheduledStart: '2026-11-30T09:00:00Z',
        scheduledEnd: '2026-11-30T10:00:00Z',
      }
      expect((await s.admin.post(`/jobs/${s.job.id}/assign`, later)).status).toBe(200)
      expect(await names()).toEqual([`JOB_ASSIGNED:${s.ben.user.id}`])
      expect((await s.admin.post(`/jobs/${s.job.id}/start`)).status).toBe(200)
      expect(await names()).toEqual(['STATUS_CHANGED:ASSIGNED'])

      // Nothing sits on Ana's shift any more; Ben's holds an IN_PROGRESS job.
      expect((await s.admin.patch(`/shifts/${s.anaShift.id}`, { userId: s.ben.user.id })).status).toBe(200)
      const started = await s.admin.patch(`/shifts/${s.benShift.id}`, { userId: s.ana.user.id })
      expect(started.status).toBe(409)
      expect(started.body.error).toContain(`${s.job.id} (IN_PROGRESS)`)
      expect(await s.drain()).toEqual([])
    })

    describe('HARD time windows (422 OUTSIDE_TIME_WINDOW, nothing written)', () => {
      const EARLIEST = '2026-11-23T09:00:00.000Z'
      const LATEST = '2026-11-23T12:00:00.000Z'
      async function windowJob(s: Setup, window: Record<string, string>) {
        return (await s.api.post('/jobs', { title: 'Windowed', ...window })).body.data.job
      }
      const visit = (who: Setup['ana'], scheduledStart: string, scheduledEnd: string) => ({
        userId: who.user.id,
        scheduledStart,
        scheduledEnd,
      })

      it.each([
        [
          'starts before earliestStart',
          '2026-11-23T08:59:59Z',
          '2026-11-23T10:00:00Z',
          'starts before earliestStart',
        ],
        ['ends after latestEnd', '2026-11-23T11:00:00Z', '2026-11-23T12:00:01Z', 'ends after latestEnd'],
        [
          'lies wholly after the window',
          '2026-11-23T13:00:00Z',
          '2026-11-23T14:00:00Z',
          'ends after latestEnd',
        ],
        [
          'lies wholly before the window',
          '2026-11-23T07:00:00Z',
          '2026-11-23T08:00:00Z',
          'starts before earliestStart',
        ],
        ['spans the window', '2026-11-23T08:00:00Z', '2026-11-23T13:00:00Z', 'starts before earliestStart'],
        [
          'ends after latestEnd in another offset',
          '2026-11-23T12:00:00+01:00',
          '2026-11-23T13:00:01+01:00',
          'ends after latestEnd',
        ],
      ])('refuses a visit that %s', async (_case, start, end, reason) => {
        const s = await setup()
        const job = await windowJob(s, { earliestStart: EARLIEST, latestEnd: LATEST, timeWindowType: 'HARD' })
        await s.drain() // JOB_CREATED
        const res = await s.admin.post(`/jobs/${job.id}/assign`, visit(s.ana, start, end))
        expect(res.status, JSON.stringify(res.body)).toBe(422)
        expect(res.body.code).toBe('OUTSIDE_TIME_WINDOW')
        expect(res.body.error).toContain(`HARD time window [${EARLIEST}, ${LATEST}]`)
        expect(res.body.error).toContain(reason)
        expect((await s.api.get(`/jobs/${job.id}`)).body.data.job).toEqual(job)
        expect(await s.drain()).toEqual([])
      })

      it('accepts a visit inside the window, its bounds included, and re-checks a re-assignment', async () => {
        const s = await setup()
        const job = await windowJob(s, { earliestStart: EARLIEST, latestEnd: LATEST })
        expect(job.timeWindowType).toBe('HARD')
        const exact = await s.admin.post(`/jobs/${job.id}/assign`, visit(s.ana, EARLIEST, LATEST))
        expect(exact.status).toBe(200)
        const assigned = exact.body.data.job
        const late = await s.admin.post(
          `/jobs/${job.id}/assign`,
          visit(s.ben, '2026-11-23T11:30:00Z', '2026-11-23T12:30:00Z'),
        )
        expect(late.status).toBe(422)
        expect(late.body.code).toBe('OUTSIDE_TIME_WINDOW')
        expect((await s.api.get(`/jobs/${job.id}`)).body.data.job).toEqual(assigned)
        const inside = await s.admin.post(
          `/jobs/${job.id}/assign`,
          visit(s.ben, '2026-11-23T10:00:00+01:00', '2026-11-23T11:00:00Z'),
        )
        expect(inside.status).toBe(200)
      })

      it('treats a missing bound as open', async () => {
        const s = await setup()
        const deadline = await windowJob(s, { latestEnd: LATEST })
        expect(
          (await s.admin.post(`/jobs/${deadline.id}/assign`, visit(s.ana, '2026-11-01T08:00:00Z', LATEST)))
            .status,
        ).toBe(200)
        const afterDeadline = await windowJob(s, { latestEnd: LATEST })
        const refused = await s.admin.post(
          `/jobs/${afterDeadline.id}/assign`,
          visit(s.ana, EARLIEST, '2026-11-23T12:00:00.001Z'),
        )
        expect(refused.status).toBe(422)
        expect(refused.body.error).toContain(`[open, ${LATEST}]`)
        const notBefore = await windowJob(s, { earliestStart: EARLIEST })
        expect(
          (await s.admin.post(`/jobs/${notBefore.id}/assign`, visit(s.ben, EARLIEST, '2026-12-31T23:00:00Z')))
            .status,
        ).toBe(200)
      })

      it('lets a SOFT job be scheduled outside its window', async () => {
        const s = await setup()
        const job = await windowJob(s, { earliestStart: EARLIEST, latestEnd: LATEST, timeWindowType: 'SOFT' })
        const res = await s.admin.post(
          `/jobs/${job.id}/assign`,
          visit(s.ana, '2026-11-23T15:00:00Z', '2026-11-23T16:00:00Z'),
        )
        expect(res.status).toBe(200)
        expect(res.body.data.job).toMatchObject({
          status: 'ASSIGNED',
          scheduledStart: '2026-11-23T15:00:00.000Z',
        })
      })

      it('checks the references (400) before the window (422)', async () => {
        const s = await setup()
        const job = await windowJob(s, { earliestStart: EARLIEST, latestEnd: LATEST })
        const res = await s.admin.post(`/jobs/${job.id}/assign`, {
          ...visit(s.ana, '2026-11-23T15:00:00Z', '2026-11-23T16:00:00Z'),
          userId: 'no-such-user',
        })
        expect(res.status).toBe(400)
      })
    })

    it('unassign clears the worker, shift and schedule', async () => {
      const s = await setup()
      await putInState(s, 'ASSIGNED')
      const res = await s.admin.post(`/jobs/${s.job.id}/unassign`, {})
      expect(res.status).toBe(200)
      const job = res.body.data.job
      expect(job).toEqual({ ...s.job, updatedAt: job.updatedAt })
      expect(job.updatedAt > s.job.updatedAt).toBe(true)
      expect((await s.api.get(`/jobs/${s.job.id}`)).body.data.job).toEqual(job)
      const subject = { jobId: s.job.id, title: 'Service boiler', status: 'CREATED' }
      expect(await s.drain()).toEqual([
        {
          event: 'JOB_UNASSIGNED',
          occurredAt: job.updatedAt,
          data: { ...subject, previousAssignedUserId: s.ana.user.id },
        },
        {
          event: 'STATUS_CHANGED',
          occurredAt: job.updatedAt,
          data: { ...subject, previousStatus: 'ASSIGNED', changedAt: job.updatedAt },
        },
      ])
    })

    it.each(['CREATED', 'ASSIGNED', 'IN_PROGRESS'] as const)(
      'cancel from %s keeps any assignment and records the reason',
      async (status) => {
        const s = await setup()
        await putInState(s, status)
        const before = (await s.api.get(`/jobs/${s.job.id}`)).body.data.job
        const res = await s.admin.post(`/jobs/${s.job.id}/cancel`, { reason: 'Customer phoned to cancel' })
        expect(res.status).toBe(200)
        const job = res.body.data.job
        expect(job).toEqual({ ...before, status: 'CANCELLED', updatedAt: job.updatedAt })
        const assignedUserId = status === 'CREATED' ? null : s.ana.user.id
        const subject = { jobId: s.job.id, title: 'Service boiler', status: 'CANCELLED' }
        expect(await s.drain()).toEqual([
          {
            event: 'JOB_CANCELLED',
            occurredAt: job.updatedAt,
            data: {
              ...subject,
              customerId: s.customer.id,
              assignedUserId,
              previousStatus: status,
              cancelledAt: job.updatedAt,
              reason: 'Customer phoned to cancel',
            },
          },
          {
            event: 'STATUS_CHANGED',
            occurredAt: job.updatedAt,
            data: { ...subject, previousStatus: status, changedAt: job.updatedAt },
          },
        ])
        const patch = await s.api.patch(`/jobs/${s.job.id}`, { title: 'x' })
        expect(patch.status).toBe(422)
        expect(patch.body.code).toBe('TERMINAL_STATE')
      },
    )

    it('cancel without a body records a null reason', async () => {
      const s = await setup()
      expect((await s.admin.post(`/jobs/${s.job.id}/cancel`)).status).toBe(200)
      const events = await s.drain()
      expect(events.find((e) => e.event === 'JOB_CANCELLED')?.data.reason).toBeNull()
    })

    describe('assignment refusals (400, nothing written)', () => {
      const refusals: [
        string,
        (s: Setup, other: Setup) => Promise<Record<string, unknown>>,
        string,
        RegExp,
      ][] = [
        [
          'an unknown user',
          async (s) => ({ ...assignTo(s.ana), userId: 'no-such-user' }),
          '/body/userId',
          /does not exist/,
        ],
        ["another organisation's user", async (_s, o) => assignTo(o.ana), '/body/userId', /does not exist/],
        [
          'an inactive user',
          async (s) => {
            await setUserActive(t.database.db, s.org, s.ana.user.id, false)
            return assignTo(s.ana, s.anaShift.id)
          },
          '/body/userId',
          /is inactive/,
        ],
        [
          'an unknown shift',
          async (s) => assignTo(s.ana, 'no-such-shift'),
          '/body/shiftId',
          /does not exist/,
        ],
        [
          "another organisation's shift",
          async (s, o) => assignTo(s.ana, o.anaShift.id),
          '/body/shiftId',
          /does not exist/,
        ],
        [
          'a shift of another user',
          async (s) => assignTo(s.ana, s.benShift.id),
          '/body/shiftId',
          /another user/,
        ],
        [
          'a shift whose vehicle is inactive',
          async (s) => {
            await setVehicleActive(t.database.db, s.org, s.ana.vehicle.id, false)
            return assignTo(s.ana, s.anaShift.id)
          },
          '/body/shiftId',
          /vehicle .* is inactive/,
        ],
        [
          'a window that ends before it starts',
          async (s) => ({ ...assignTo(s.ana), scheduledEnd: '2026-11-23T08:59:59Z' }),
          '/body/scheduledEnd',
          /after scheduledStart/,
        ],
        [
          'an empty window',
          async (s) => ({ ...assignTo(s.ana), scheduledEnd: '2026-11-23T10:00:00+01:00' }),
          '/body/scheduledEnd',
          /after scheduledStart/,
        ],
        [
          'a datetime without offset',
          async (s) => ({ ...assignTo(s.ana), scheduledStart: '2026-11-23T09:00:00' }),
          '/body/scheduledStart',
          /with an offset/,
        ],
        [
          'a missing userId',
          async () => ({ scheduledStart: START, scheduledEnd: END }),
          '/body/userId',
          /required/,
        ],
        [
          'a missing scheduledEnd',
          async (s) => ({ userId: s.ana.user.id, scheduledStart: START }),
          '/body/scheduledEnd',
          /required/,
        ],
        ['a wrong type', async (s) => ({ ...assignTo(s.ana), userId: 42 }), '/body/userId', /string/],
        [
          'an unknown field',
          async (s) => ({ ...assignTo(s.ana), status: 'ASSIGNED' }),
          '/body/status',
          /unknown field/,
        ],
      ]
      it.each(refusals)('refuses %s', async (_case, bodyFor, path, message) => {
        const s = await setup()
        const other = await setup()
        const body = await bodyFor(s, other)
        const res = await s.admin.post(`/jobs/${s.job.id}/assign`, body)
        expect(res.status).toBe(400)
        expect(res.body.code).toBe('VALIDATION_ERROR')
        const detail = res.body.details.find((d: { path: string }) => d.path === path)
        expect(detail?.message).toMatch(message)
        expect((await s.api.get(`/jobs/${s.job.id}`)).body.data.job).toEqual(s.job)
        expect(await s.drain()).toEqual([])
      })

      it('assigns again once the user and vehicle are active', async () => {
        const s = await setup()
        await setUserActive(t.database.db, s.org, s.ana.user.id, false)
        await setVehicleActive(t.database.db, s.org, s.ana.vehicle.id, false)
        expect((await s.admin.post(`/jobs/${s.job.id}/assign`, assignTo(s.ana))).status).toBe(400)
        await setUserActive(t.database.db, s.org, s.ana.user.id, true)
        // Without a shift the vehicle does not matter.
        expect((await s.admin.post(`/jobs/${s.job.id}/assign`, assignTo(s.ana))).status).toBe(200)
        expect((await s.admin.post(`/jobs/${s.job.id}/assign`, assignTo(s.ana, s.anaShift.id))).status).toBe(
          400,
        )
        await setVehicleActive(t.database.db, s.org, s.ana.vehicle.id, true)
        const res = await s.admin.post(`/jobs/${s.job.id}/assign`, assignTo(s.ana, s.anaShift.id))
        expect(res.status).toBe(200)
        expect(res.body.data.job.shiftId).toBe(s.anaShift.id)
      })

      it('checks the transition before the references', async () => {
        const s = await setup()
        await putInState(s, 'COMPLETED')
        const res = await s.admin.post(`/jobs/${s.job.id}/assign`, {
          ...assignTo(s.ana),
          userId: 'no-such-user',
        })
        expect(res.status).toBe(422)
        expect(res.body.code).toBe('INVALID_TRANSITION')
      })
    })

    it('actions without input accept no body or {}, and refuse unknown fields', async () => {
      const s = await setup()
      await putInState(s, 'ASSIGNED')
      for (const action of ['unassign', 'start', 'complete', 'cancel']) {
        const res = await s.admin.post(`/jobs/${s.job.id}/${action}`, { force: true })
        expect(res.status).toBe(400)
        expect(res.body.details).toEqual([{ path: '/body/force', message: 'unknown field "force"' }])
      }
      const tooLong = await s.admin.post(`/jobs/${s.job.id}/cancel`, { reason: 'x'.repeat(501) })
      expect(tooLong.status).toBe(400)
      expect(tooLong.body.details[0].path).toBe('/body/reason')
      expect((await s.admin.post(`/jobs/${s.job.id}/start`)).status).toBe(200)
      // An empty body sent with a JSON content type counts as no body.
      const complete = await t.app.inject({
        method: 'POST',
        url: `/v1/admin/jobs/${s.job.id}/complete`,
        headers: { ...s.tenant.headers, 'content-type': 'application/json' },
        payload: '',
      })
      expect(complete.statusCode).toBe(200)
      expect(complete.json().data.job.status).toBe('COMPLETED')
    })

    it("answers 404 for unknown, deleted and another organisation's jobs, leaving them unchanged", async () => {
      const s = await setup()
      const other = await setup()
      const deleted = (await s.api.post('/jobs', { title: 'Gone' })).body.data.job
      expect((await s.api.delete(`/jobs/${deleted.id}`)).status).toBe(200)
      expect((await s.drain()).map((e) => e.event)).toEqual(['JOB_CREATED', 'JOB_DELETED'])
      for (const id of ['no-such-job', deleted.id, other.job.id]) {
        for (const action of ACTIONS) {
          const body = action === 'assign' ? assignTo(s.ana) : {}
          const res = await s.admin.post(`/jobs/${id}/${action}`, body)
          expect(res.status, `${action} ${id}`).toBe(404)
          expect(res.body).toEqual({ error: 'Job not found', code: 'NOT_FOUND' })
        }
      }
      expect((await other.api.get(`/jobs/${other.job.id}`)).body.data.job).toEqual(other.job)
      expect(await s.drain()).toEqual([])
      expect(await other.drain()).toEqual([])
    })

    it('refuses keys without the admin scope with 403 FORBIDDEN', async () => {
      const s = await setup()
      for (const scopes of [['read'], ['write'], ['read', 'write']] as const) {
        const tenant = await createTenant(t, { scopes: [...scopes] })
        const admin = adminClient(t, tenant.headers)
        for (const action of ACTIONS) {
          const res = await admin.post(
            `/jobs/${s.job.id}/${action}`,
            action === 'assign' ? assignTo(s.ana) : {},
          )
          expect(res.status).toBe(403)
          expect(res.body.code).toBe('FORBIDDEN')
        }
      }
      expect((await s.api.get(`/jobs/${s.job.id}`)).body.data.job).toEqual(s.job)
    })
  })
}
