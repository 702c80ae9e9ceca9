import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  assertDocumentedFeedEvent,
  assertDocumentedPayload,
  payloadValidators,
} from '../../../test/event-payloads.js'
import { makeCapacityDimension, makeLocation, makeShiftReferences, makeTag } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

interface OutboxEvent {
  id: string
  event: string
  occurredAt: string
  data: Record<string, unknown>
}

/** The webhook body receivers get for an outbox row must match its event's documented schema. */
function assertDocumented(e: OutboxEvent): void {
  // Feed-only: no webhook carries it, the event feed documents it.
  if (e.event === 'JOB_DELETED') {
    assertDocumentedFeedEvent({ id: e.id, event: e.event, timestamp: e.occurredAt, data: e.data })
    return
  }
  assertDocumentedPayload({ event: e.event, timestamp: e.occurredAt, data: e.data })
}

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

for (const dialect of DIALECTS) {
  describe(`${dialect}: domain events`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const org = tenant.organisationId
      const db = t.database.db
      const seen = new Set<string>()
      /** Outbox rows written since the last call, in outbox order; each checked against its schema. */
      const drain = async (): Promise<OutboxEvent[]> => {
        const rows = await db
          .selectFrom('outbox_events')
          .selectAll()
          .where('organisation_id', '=', org)
          .orderBy('occurred_at')
          .orderBy('id')
          .execute()
        const fresh = rows
          .filter((row) => !seen.has(row.id))
          .map((row) => ({
            id: row.id,
            event: row.event,
            occurredAt: row.occurred_at,
            data: JSON.parse(row.data),
          }))
        for (const e of fresh) {
          seen.add(e.id)
          assertDocumented(e)
        }
        return fresh
      }
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const customer = (
        await api.post('/customers', {
          name: 'Acme Bakery',
          latitude: 53.48,
          longitude: -2.24,
          serviceDuration: 1200,
        })
      ).body.data.customer
      const location = await makeLocation(db, org)
      return { tenant, org, db, api, admin, customer, location, drain }
    }
    type Setup = Awaited<ReturnType<typeof setup>>

    async function createJob(s: Setup, body: Record<string, unknown> = { title: 'Service boiler' }) {
      const res = await s.api.post('/jobs', body)
      expect(res.status).toBe(201)
      return res.body.data.job
    }

    it('POST /jobs records JOB_CREATED with the job as created', async () => {
      const s = await setup()
      const job = await createJob(s, {
        title: 'Replace valve',
        description: 'Pressure drops overnight',
        customerId: s.customer.id,
        locationId: s.location.id,
        jobLatitude: 51.5,
        jobLongitude: -0.1275,
        priority: 'HIGH',
        timeWindowType: 'SOFT',
        earliestStart: '2026-11-23T10:00:00+01:00',
        latestEnd: '2026-11-23T17:00:00Z',
        address: 'Gate 3, Unit 4, Westinghouse Road',
      })
      expect(await s.drain()).toEqual([
        {
          id: expect.any(String),
          event: 'JOB_CREATED',
          occurredAt: job.createdAt,
          data: {
            jobId: job.id,
            title: 'Replace valve',
            status: 'CREATED',
            description: 'Pressure drops overnight',
            priority: 'HIGH',
            customerId: s.customer.id,
            locationId: s.location.id,
            jobLatitude: '51.5',
            jobLongitude: '-0.1275',
            serviceDuration: 1200,
            timeWindowType: 'SOFT',
            earliestStart: '2026-11-23T09:00:00.000Z',
            latestEnd: '2026-11-23T17:00:00.000Z',
            createdAt: job.createdAt,
            number: job.number,
            address: 'Gate 3, Unit 4, Westinghouse Road',
            seriesId: null,
            occurrenceDate: null,
            dueBy: null,
          },
        },
      ])
      expect(job.createdAt).toMatch(ISO_MS)

      // Defaults and nulls, as the public API shows them.
      const bare = await createJob(s, { title: 'Bare' })
      const [created] = await s.drain()
      expect(created?.data).toEqual({
        jobId: bare.id,
        title: 'Bare',
        status: 'CREATED',
        description: null,
        priority: 'NORMAL',
        customerId: null,
        locationId: null,
        jobLatitude: null,
        jobLongitude: null,
        serviceDuration: 900,
        timeWindowType: 'HARD',
        earliestStart: null,
        latestEnd: null,
        createdAt: bare.createdAt,
        number: bare.number,
        address: null,
        seriesId: null,
        occurrenceDate: null,
        dueBy: null,
      })
    })

    it('PATCH records JOB_UPDATED with exactly the fields that changed, in API formats', async () => {
      const s = await setup()
      const job = await createJob(s, {
        title: 'Service boiler',
        priority: 'LOW',
        jobLatitude: 53.1,
        jobLongitude: -2.1,
        earliestStart: '2026-11-23T09:00:00Z',
        serviceDuration: 1800,
      })
      await s.drain()
      await pause()
      const res = await s.api.patch(`/jobs/${job.id}`, {
        title: 'Service boiler',
        priority: 'HIGH',
        serviceDuration: 3600,
        jobLatitude: 53.25,
        jobLongitude: 1e-7,
        earliestStart: '2026-11-23T08:30:00-01:00',
        description: null,
        customerId: s.customer.id,
      })
      expect(res.status).toBe(200)
      const updated = res.body.data.job
      expect(await s.drain()).toEqual([
        {
          id: expect.any(String),
          event: 'JOB_UPDATED',
          occurredAt: updated.updatedAt,
          data: {
            jobId: job.id,
            title: 'Service boiler',
            status: 'CREATED',
            updatedAt: updated.updatedAt,
            changes: {
              priority: { previous: 'LOW', current: 'HIGH' },
              serviceDuration: { previous: 1800, current: 3600 },
              jobLatitude: { previous: '53.1', current: '53.25' },
              jobLongitude: { previous: '-2.1', current: '0.0000001' },
              earliestStart: { previous: '2026-11-23T09:00:00.000Z', current: '2026-11-23T09:30:00.000Z' },
              customerId: { previous: null, current: s.customer.id },
            },
          },
        },
      ])
      expect(updated.updatedAt > job.updatedAt).toBe(true)

      // Clearing a field and renaming: previous and current as the API showed them.
      const cleared = (await s.api.patch(`/jobs/${job.id}`, { earliestStart: null, title: 'Boiler service' }))
        .body.data.job
      expect((await s.drain()).map((e) => e.data)).toEqual([
        {
          jobId: job.id,
          title: 'Boiler service',
          status: 'CREATED',
          updatedAt: cleared.updatedAt,
          changes: {
            title: { previous: 'Service boiler', current: 'Boiler service' },
            earliestStart: { previous: '2026-11-23T09:30:00.000Z', current: null },
          },
        },
      ])
    })

    it('a PATCH that changes nothing records nothing', async () => {
      const s = await setup()
      const job = await createJob(s, {
        title: 'Same',
        jobLatitude: 51.5,
        jobLongitude: -0.1,
        earliestStart: '2026-11-23T09:00:00Z',
      })
      await s.drain()
      for (const body of [
        {},
        { title: 'Same' },
        { jobLatitude: 51.5, earliestStart: '2026-11-23T10:00:00+01:00', description: null },
      ]) {
        const res = await s.api.patch(`/jobs/${job.id}`, body)
        expect(res.status).toBe(200)
        expect(res.body.data.job).toEqual(job)
      }
      expect(await s.drain()).toEqual([])
    })

    it('new tags or demands record JOB_UPDATED; the same set records nothing', async () => {
      const s = await setup()
      const job = await createJob(s)
      const gas = await makeTag(s.db, s.org, 'Gas safe')
      const ladder = await makeTag(s.db, s.org, 'Ladder')
      const weight = await makeCapacityDimension(s.db, s.org, 'weight')
      const volume = await makeCapacityDimension(s.db, s.org, 'volume')
      await s.drain()
      const sorted = (ids: string[]) => [...ids].sort()

      const tagged = (await s.admin.put(`/jobs/${job.id}/tags`, { tagIds: [ladder.id, gas.id] })).body.data
        .job
      const retagged = (await s.admin.put(`/jobs/${job.id}/tags`, { tagIds: [gas.id] })).body.data.job
      expect((await s.admin.put(`/jobs/${job.id}/tags`, { tagIds: [gas.id] })).status).toBe(200)
      const subject = { jobId: job.id, title: 'Service boiler', status: 'CREATED' }
      expect(await s.drain()).toEqual([
        {
          id: expect.any(String),
          event: 'JOB_UPDATED',
          occurredAt: tagged.updatedAt,
          data: {
            ...subject,
            updatedAt: tagged.updatedAt,
            changes: { tags: { previous: [], current: sorted([ladder.id, gas.id]) } },
          },
        },
        {
          id: expect.any(String),
          event: 'JOB_UPDATED',
          occurredAt: retagged.updatedAt,
          data: {
            ...subject,
            updatedAt: retagged.updatedAt,
            changes: { tags: { previous: sorted([ladder.id, gas.id]), current: [gas.id] } },
          },
        },
      ])

      const demands = [
        { capacityDimensionId: weight.id, requiredValue: 2.5 },
        { capacityDimensionId: volume.id, requiredValue: 1 },
      ]
      const byId = (list: typeof demands) =>
        [...list].sort((a, b) => (a.capacityDimensionId < b.capacityDimensionId ? -1 : 1))
      const first = (await s.admin.put(`/jobs/${job.id}/demands`, { demands })).body.data.job
      expect((await s.admin.put(`/jobs/${job.id}/demands`, { demands: [...demands].reverse() })).status).toBe(
        200,
      )
      const second = (
        await s.admin.put(`/jobs/${job.id}/demands`, {
          demands: [{ capacityDimensionId: weight.id, requiredValue: 3 }],
        })
      ).body.data.job
      expect((await s.drain()).map((e) => e.data)).toEqual([
        {
          ...subject,
          updatedAt: first.updatedAt,
          changes: { demands: { previous: [], current: byId(demands) } },
        },
        {
          ...subject,
          updatedAt: second.updatedAt,
          changes: {
            demands: {
              previous: byId(demands),
              current: [{ capacityDimensionId: weight.id, requiredValue: 3 }],
            },
          },
        },
      ])
    })

    it('refused requests record nothing; a soft delete records only the feed-only JOB_DELETED', async () => {
      const s = await setup()
      const job = await createJob(s)
      const done = await createJob(s, { title: 'Done' })
      await s.admin.post(`/jobs/${done.id}/cancel`)
      await s.drain()
      const refused: [() => Promise<{ status: number }>, number][] = [
        [() => s.api.post('/jobs', {}), 400],
        [() => s.api.post('/jobs', { title: 'x', customerId: 'no-such-customer' }), 400],
        [
          () =>
            s.api.post('/jobs', {
              title: 'x',
              earliestStart: '2026-11-23T10:00:00Z',
              latestEnd: '2026-11-23T09:00:00Z',
            }),
          400,
        ],
        [
          () =>
            s.api.patch(`/jobs/${job.id}`, {
              latestEnd: '2020-01-01T00:00:00Z',
              earliestStart: '2021-01-01T00:00:00Z',
            }),
          400,
        ],
        [() => s.api.patch(`/jobs/${job.id}`, { title: 42 }), 400],
        [() => s.api.patch(`/jobs/${job.id}`, { locationId: 'no-such-location' }), 400],
        [() => s.api.patch('/jobs/no-such-job', { title: 'x' }), 404],
        [() => s.api.patch(`/jobs/${done.id}`, { title: 'x' }), 422],
        [() => s.admin.put(`/jobs/${job.id}/tags`, { tagIds: ['no-such-tag'] }), 400],
        [() => s.admin.put(`/jobs/${done.id}/tags`, { tagIds: [] }), 422],
        [() => s.admin.post(`/jobs/${job.id}/start`), 422],
        [() => s.admin.post(`/jobs/${job.id}/form-submissions`, { form: 'x', answers: [] }), 400],
        [
          () =>
            s.admin.post(`/jobs/${job.id}/form-submissions`, {
              form: 'x',
              answers: {},
              submittedByUserId: 'nobody',
            }),
          400,
        ],
        [() => s.admin.post('/jobs/no-such-job/form-submissions', { form: 'x', answers: {} }), 404],
      ]
      for (const [request, status] of refused) expect((await request()).status).toBe(status)
      expect(await s.drain()).toEqual([])

      const deleted = await s.api.delete(`/jobs/${job.id}`)
      expect(deleted.status).toBe(200)
      const { deletedAt } = deleted.body.data.job
      expect(await s.drain()).toEqual([
        {
          id: expect.any(String),
          event: 'JOB_DELETED',
          occurredAt: deletedAt,
          data: { jobId: job.id, title: job.title, status: 'CREATED', deletedAt },
        },
      ])
    })

    it('the lifecycle records STATUS_CHANGED, JOB_ASSIGNED, JOB_UNASSIGNED, JOB_COMPLETED and JOB_CANCELLED', async () => {
      const s = await setup()
      const ana = await makeShiftReferences(s.db, s.org, { user: 'Ana', email: `ana-${s.org}@example.com` })
      const ben = await makeShiftReferences(s.db, s.org, { user: 'Ben', vehicle: 'Van 2' })
      const job = await createJob(s, { title: 'Service boiler', customerId: s.customer.id })
      await s.drain()
      const window = { scheduledStart: '2026-11-23T09:00:00Z', scheduledEnd: '2026-11-23T10:00:00Z' }
      const subject = { jobId: job.id, title: 'Service boiler' }
      const assignedTo = (userId: string) => ({
        ...subject,
        status: 'ASSIGNED',
        customerId: s.customer.id,
        assignedUserId: userId,
        shiftId: null,
        scheduledStart: '2026-11-23T09:00:00.000Z',
        scheduledEnd: '2026-11-23T10:00:00.000Z',
      })

      const a = (await s.admin.post(`/jobs/${job.id}/assign`, { userId: ana.user.id, ...window })).body.data
        .job
      expect((await s.drain()).map(({ event, occurredAt, data }) => ({ event, occurredAt, data }))).toEqual([
        { event: 'JOB_ASSIGNED', occurredAt: a.updatedAt, data: assignedTo(ana.user.id) },
        {
          event: 'STATUS_CHANGED',
          occurredAt: a.updatedAt,
          data: { ...subject, status: 'ASSIGNED', previousStatus: 'CREATED', changedAt: a.updatedAt },
        },
      ])

      // Another worker: the previous one loses the job first; one moment, ids in that order.
      const b = (await s.admin.post(`/jobs/${job.id}/assign`, { userId: ben.user.id, ...window })).body.data
        .job
      const reassigned = await s.drain()
      expect(reassigned.map(({ event, occurredAt, data }) => ({ event, occurredAt, data }))).toEqual([
        {
          event: 'JOB_UNASSIGNED',
          occurredAt: b.updatedAt,
          data: { ...subject, status: 'ASSIGNED', previousAssignedUserId: ana.user.id },
        },
        { event: 'JOB_ASSIGNED', occurredAt: b.updatedAt, data: assignedTo(ben.user.id) },
      ])
      const [first, second] = reassigned.map((e) => e.id)
      expect(first !== undefined && second !== undefined && first < second).toBe(true)

      await s.admin.post(`/jobs/${job.id}/start`)
      await s.drain()
      const c = (await s.admin.post(`/jobs/${job.id}/complete`)).body.data.job
      const completed = await s.drain()
      expect(completed.map((e) => e.event)).toEqual(['JOB_COMPLETED', 'STATUS_CHANGED'])
      // Spec §6's six fields, in this order, then ours: the attachments it was completed with.
      expect(Object.keys(completed[0]?.data ?? {})).toEqual([
        'jobId',
        'title',
        'status',
        'customerId',
        'assignedUserId',
        'completedAt',
        'attachments',
      ])
      expect(completed[0]?.data).toEqual({
        ...subject,
        status: 'COMPLETED',
        customerId: s.customer.id,
        assignedUserId: ben.user.id,
        completedAt: c.completedAt,
        attachments: [],
      })

      const other = await createJob(s, { title: 'Other' })
      await s.drain()
      const x = (await s.admin.post(`/jobs/${other.id}/cancel`, { reason: 'Duplicate' })).body.data.job
      expect((await s.drain()).map((e) => e.data)).toEqual([
        {
          jobId: other.id,
          title: 'Other',
          status: 'CANCELLED',
          customerId: null,
          assignedUserId: null,
          previousStatus: 'CREATED',
          cancelledAt: x.updatedAt,
          reason: 'Duplicate',
        },
        {
          jobId: other.id,
          title: 'Other',
          status: 'CANCELLED',
          previousStatus: 'CREATED',
          changedAt: x.updatedAt,
        },
      ])
    })

    it('a form submission records FORM_SUBMITTED, also on a completed job', async () => {
      const s = await setup()
      const worker = await makeShiftReferences(s.db, s.org)
      const job = await createJob(s, { title: 'Gas check' })
      await s.admin.post(`/jobs/${job.id}/assign`, {
        userId: worker.user.id,
        scheduledStart: '2026-11-23T09:00:00Z',
        scheduledEnd: '2026-11-23T10:00:00Z',
      })
      await s.admin.post(`/jobs/${job.id}/start`)
      await s.admin.post(`/jobs/${job.id}/complete`)
      await s.drain()
      const answers = { pressureBar: 1.5, ok: true, readings: [{ at: '09:10', value: null }], notes: 'é ✓' }
      const res = await s.admin.post(`/jobs/${job.id}/form-submissions`, {
        form: 'gas-safety',
        answers,
        submittedByUserId: worker.user.id,
      })
      expect(res.status).toBe(201)
      const submission = res.body.data.formSubmission
      expect(await s.drain()).toEqual([
        {
          id: expect.any(String),
          event: 'FORM_SUBMITTED',
          occurredAt: submission.createdAt,
          data: {
            submissionId: submission.id,
            jobId: job.id,
            title: 'Gas check',
            form: 'gas-safety',
            answers,
            submittedByUserId: worker.user.id,
            submittedAt: submission.createdAt,
          },
        },
      ])
      await s.admin.post(`/jobs/${job.id}/form-submissions`, { form: 'photo', answers: {} })
      expect((await s.drain()).map((e) => e.data.submittedByUserId)).toEqual([null])
    })

    it("another organisation's actions never appear in this organisation's outbox", async () => {
      const s = await setup()
      const other = await setup()
      await s.drain()
      await other.drain()
      const job = await createJob(other)
      await other.api.patch(`/jobs/${job.id}`, { priority: 'HIGH' })
      await other.admin.post(`/jobs/${job.id}/form-submissions`, { form: 'x', answers: {} })
      await other.admin.post(`/jobs/${job.id}/cancel`)
      // And this organisation cannot act on the other's job at all.
      expect((await s.api.patch(`/jobs/${job.id}`, { priority: 'LOW' })).status).toBe(404)
      expect(
        (await s.admin.post(`/jobs/${job.id}/form-submissions`, { form: 'x', answers: {} })).status,
      ).toBe(404)
      expect(await s.drain()).toEqual([])
      expect((await other.drain()).map((e) => e.event)).toEqual([
        'JOB_CREATED',
        'JOB_UPDATED',
        'FORM_SUBMITTED',
        'JOB_CANCELLED',
        'STATUS_CHANGED',
      ])
    })
  })
}

describe('event schemas', () => {
  const data = {
    jobId: 'j1',
    title: 'T',
    status: 'COMPLETED',
    customerId: null,
    assignedUserId: 'u1',
    completedAt: '2026-11-23T10:00:00.000Z',
    attachments: [{ id: 'a1', kind: 'PHOTO' }],
  }
  const payload = (d: object) => ({ event: 'JOB_COMPLETED', timestamp: '2026-11-23T10:00:00.000Z', data: d })

  it('accept a documented payload and refuse anything undocumented or malformed', () => {
    const validate = payloadValidators.JOB_COMPLETED
    expect(validate(payload(data))).toBe(true)
    expect(validate(payload({ ...data, extra: 1 }))).toBe(false)
    expect(validate({ ...payload(data), extra: 1 })).toBe(false)
    expect(validate(payload({ ...data, status: 'ASSIGNED' }))).toBe(false)
    expect(validate(payload({ ...data, completedAt: 'yesterday' }))).toBe(false)
    expect(validate({ ...payload(data), event: 'JOB_CANCELLED' })).toBe(false)
    const { completedAt: _, ...missing } = data
    expect(validate(payload(missing))).toBe(false)
  })

  it('require JOB_UPDATED to name at least one change, each as { previous, current }', () => {
    const validate = payloadValidators.JOB_UPDATED
    const updated = (changes: object) => ({
      event: 'JOB_UPDATED',
      timestamp: '2026-11-23T10:00:00.000Z',
      data: { jobId: 'j', title: 't', status: 'CREATED', updatedAt: '2026-11-23T10:00:00.000Z', changes },
    })
    expect(validate(updated({ title: { previous: 'a', current: 'b' } }))).toBe(true)
    expect(validate(updated({}))).toBe(false)
    expect(validate(updated({ title: { previous: 'a' } }))).toBe(false)
    expect(validate(updated({ assignedUserId: { previous: null, current: 'u' } }))).toBe(false)
  })
})
