import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addJobDemand,
  makeCapacityDimension,
  makeLocation,
  makeShift,
  makeTag,
  makeUser,
  makeVehicle,
  setJobState,
  tagJob,
} from '../../../test/factories.js'
import {
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'

const LISTED_KEYS = [
  'id',
  'title',
  'description',
  'status',
  'priority',
  'customerId',
  'locationId',
  'jobLatitude',
  'jobLongitude',
  'serviceDuration',
  'timeWindowType',
  'earliestStart',
  'latestEnd',
  'scheduledStart',
  'scheduledEnd',
  'assignedUserId',
  'startedAt',
  'completedAt',
  'createdAt',
  'updatedAt',
  'number',
  'address',
  'seriesId',
  'occurrenceDate',
  'externalId',
  'dueBy',
  'customer',
  'assignedUser',
  'location',
]
const DETAIL_KEYS = [
  ...LISTED_KEYS,
  'shiftId',
  'actualDuration',
  'startRecordedAt',
  'enRouteAt',
  'completeRecordedAt',
  'tags',
  'demands',
]
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

for (const dialect of DIALECTS) {
  describe(`${dialect}: jobs`, () => {
    let t: TestContext
    let tenant: TestTenant
    let other: TestTenant
    let api: ReturnType<typeof client>
    let customer: { id: string; name: string }
    let otherCustomerId: string
    let location: { id: string; name: string }
    let otherLocationId: string

    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t)
      other = await createTenant(t)
      api = client(t, tenant.headers)
      const created = await api.post('/customers', {
        name: 'Acme Bakery',
        address: '12 Deansgate, Manchester',
        latitude: 53.4794,
        longitude: -2.2453,
        serviceDuration: 1800,
      })
      customer = created.body.data.customer
      otherCustomerId = (
        await client(t, other.headers).post('/customers', { name: 'Other Co', latitude: 1, longitude: 1 })
      ).body.data.customer.id
      location = await makeLocation(t.database.db, tenant.organisationId, { name: 'North Depot' })
      otherLocationId = (await makeLocation(t.database.db, other.organisationId)).id
    })
    afterAll(() => t.close())

    describe('POST /jobs', () => {
      it('creates a job with defaults and answers 201 with the single-job shape', async () => {
        const response = await api.post('/jobs', { title: 'Fix leaking tap' })
        expect(response.status).toBe(201)
        expect(response.body.message).toBe('Success')
        const job = response.body.data.job
        expect(Object.keys(job).sort()).toEqual([...DETAIL_KEYS].sort())
        expect(job).toMatchObject({
          title: 'Fix leaking tap',
          description: null,
          status: 'CREATED',
          priority: 'NORMAL',
          customerId: null,
          locationId: null,
          jobLatitude: null,
          jobLongitude: null,
          serviceDuration: 900,
          timeWindowType: 'HARD',
          earliestStart: null,
          latestEnd: null,
          scheduledStart: null,
          scheduledEnd: null,
          assignedUserId: null,
          startedAt: null,
          completedAt: null,
          customer: null,
          assignedUser: null,
          location: null,
          shiftId: null,
          actualDuration: null,
          startRecordedAt: null,
          completeRecordedAt: null,
          tags: [],
          demands: [],
        })
        expect(job.id).toMatch(/^[0-9a-f-]{36}$/)
        expect(job.createdAt).toMatch(ISO_MS)
        expect(job.updatedAt).toBe(job.createdAt)
      })

      it('stores every field, with coordinates as decimal strings and datetimes in UTC', async () => {
        const response = await api.post('/jobs', {
          title: 'Boiler service',
          description: 'Annual service',
          customerId: customer.id,
          locationId: location.id,
          jobLatitude: 53.4794,
          jobLongitude: -0.0000001,
          priority: 'HIGH',
          serviceDuration: 3600,
          timeWindowType: 'SOFT',
          earliestStart: '2026-11-23T09:00:00+01:00',
          latestEnd: '2026-11-23T17:30:00.5Z',
        })
        expect(response.status).toBe(201)
        expect(response.body.data.job).toMatchObject({
          description: 'Annual service',
          customerId: customer.id,
          locationId: location.id,
          jobLatitude: '53.4794',
          jobLongitude: '-0.0000001',
          priority: 'HIGH',
          serviceDuration: 3600,
          timeWindowType: 'SOFT',
          earliestStart: '2026-11-23T08:00:00.000Z',
          latestEnd: '2026-11-23T17:30:00.500Z',
          customer: {
            id: customer.id,
            name: 'Acme Bakery',
            address: '12 Deansgate, Manchester',
            latitude: '53.4794',
            longitude: '-2.2453',
          },
          location: { id: location.id, name: 'North Depot' },
        })
      })

      it("defaults serviceDuration to the customer's", async () => {
        const response = await api.post('/jobs', { title: 'Window clean', customerId: customer.id })
        expect(response.body.data.job.serviceDuration).toBe(1800)
      })

      it.each([
        ['title missing', {}, '/body/title'],
        ['title empty', { title: '' }, '/body/title'],
        ['title blank', { title: '   ' }, '/body/title'],
        ['title not a string', { title: 42 }, '/body/title'],
        ['title too long', { title: 'x'.repeat(256) }, '/body/title'],
        ['unknown field', { title: 'x', colour: 'red' }, '/body/colour'],
        ['priority invalid', { title: 'x', priority: 'URGENT' }, '/body/priority'],
        ['timeWindowType invalid', { title: 'x', timeWindowType: 'hard' }, '/body/timeWindowType'],
        ['serviceDuration negative', { title: 'x', serviceDuration: -1 }, '/body/serviceDuration'],
        ['serviceDuration fractional', { title: 'x', serviceDuration: 1.5 }, '/body/serviceDuration'],
        ['serviceDuration as string', { title: 'x', serviceDuration: '900' }, '/body/serviceDuration'],
        ['latitude out of range', { title: 'x', jobLatitude: 90.5 }, '/body/jobLatitude'],
        ['longitude out of range', { title: 'x', jobLongitude: -181 }, '/body/jobLongitude'],
        ['latitude as string', { title: 'x', jobLatitude: '51.5' }, '/body/jobLatitude'],
        ['latitude without longitude', { title: 'x', jobLatitude: 51.5 }, '/body/jobLongitude'],
        ['longitude without latitude', { title: 'x', jobLongitude: -0.1 }, '/body/jobLatitude'],
        [
          'latitude with a null longitude',
          { title: 'x', jobLatitude: 0, jobLongitude: null },
          '/body/jobLongitude',
        ],
        [
          'datetime without offset',
          { title: 'x', earliestStart: '2026-11-23T09:00:00' },
          '/body/earliestStart',
        ],
        ['datetime nonsense', { title: 'x', latestEnd: 'tomorrow' }, '/body/latestEnd'],
        ['impossible date', { title: 'x', earliestStart: '2026-02-30T09:00:00Z' }, '/body/earliestStart'],
        ['year zero', { title: 'x', earliestStart: '0000-06-01T09:00:00Z' }, '/body/earliestStart'],
        ['past year 9999 in UTC', { title: 'x', latestEnd: '9999-12-31T23:00:00-05:00' }, '/body/latestEnd'],
        [
          'earliestStart after latestEnd',
          { title: 'x', earliestStart: '2026-11-23T12:00:00Z', latestEnd: '2026-11-23T09:00:00Z' },
          '/body/latestEnd',
        ],
        [
          'earliestStart equal to latestEnd',
          { title: 'x', earliestStart: '2026-11-23T12:00:00Z', latestEnd: '2026-11-23T13:00:00+01:00' },
          '/body/latestEnd',
        ],
        ['customerId unknown', { title: 'x', customerId: 'no-such-customer' }, '/body/customerId'],
        ['locationId unknown', { title: 'x', locationId: 'no-such-location' }, '/body/locationId'],
        // Found by the fuzzer (test/fuzz): an empty id skipped the check and failed the insert with a 500.
        ['customerId empty', { title: 'x', customerId: '' }, '/body/customerId'],
        ['locationId empty', { title: 'x', locationId: '' }, '/body/locationId'],
      ])('rejects %s with 400 VALIDATION_ERROR and creates nothing', async (_case, payload, path) => {
        const before = (await api.get('/jobs')).body.data.pagination.total
        const response = await api.post('/jobs', payload)
        expect(response.status).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
        expect(typeof response.body.error).toBe('string')
        expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path)
        expect((await api.get('/jobs')).body.data.pagination.total).toBe(before)
      })

      it("rejects another organisation's customer and location as not found (400)", async () => {
        const byCustomer = await api.post('/jobs', { title: 'x', customerId: otherCustomerId })
        expect(byCustomer.status).toBe(400)
        expect(byCustomer.body.details[0].path).toBe('/body/customerId')
        const byLocation = await api.post('/jobs', { title: 'x', locationId: otherLocationId })
        expect(byLocation.status).toBe(400)
        expect(byLocation.body.details[0].path).toBe('/body/locationId')
      })
    })

    describe('GET /jobs/:id', () => {
      it('returns tags, demands, shift, assignee and actual duration', async () => {
        const db = t.database.db
        const org = tenant.organisationId
        const job = (await api.post('/jobs', { title: 'Install radiator', customerId: customer.id })).body
          .data.job
        const user = await makeUser(db, org, { name: 'Priya Shah', email: 'priya@example.com' })
        const vehicle = await makeVehicle(db, org, location.id)
        const shift = await makeShift(db, org, {
          userId: user.id,
          locationId: location.id,
          vehicleId: vehicle.id,
        })
        const urgent = await makeTag(db, org, 'urgent')
        const gas = await makeTag(db, org, 'gas-safe')
        const weight = await makeCapacityDimension(db, org, 'weight_kg', 'Weight (kg)')
        await tagJob(db, org, job.id, urgent.id)
        await tagJob(db, org, job.id, gas.id)
        await addJobDemand(db, org, job.id, weight.id, 12.5)
        await setJobState(db, org, job.id, {
          status: 'COMPLETED',
          assignedUserId: user.id,
          shiftId: shift.id,
          scheduledStart: '2026-11-23T09:00:00.000Z',
          scheduledEnd: '2026-11-23T10:00:00.000Z',
          startedAt: '2026-11-23T09:05:00.000Z',
          completedAt: '2026-11-23T09:50:00.000Z',
          actualDuration: 2700,
        })
        const response = await api.get(`/jobs/${job.id}`)
        expect(response.status).toBe(200)
        expect(response.body.data.job).toMatchObject({
          status: 'COMPLETED',
          assignedUserId: user.id,
          assignedUser: { id: user.id, name: 'Priya Shah', email: 'priya@example.com' },
          shiftId: shift.id,
          scheduledStart: '2026-11-23T09:00:00.000Z',
          scheduledEnd: '2026-11-23T10:00:00.000Z',
          startedAt: '2026-11-23T09:05:00.000Z',
          completedAt: '2026-11-23T09:50:00.000Z',
          actualDuration: 2700,
          tags: [{ tag: { id: gas.id, name: 'gas-safe' } }, { tag: { id: urgent.id, name: 'urgent' } }],
          demands: [
            {
              capacityDimension: { id: weight.id, key: 'weight_kg', label: 'Weight (kg)' },
              requiredValue: 12.5,
            },
          ],
        })
      })

      it('is 404 NOT_FOUND for unknown ids, odd ids, and other organisations', async () => {
        const theirs = (await client(t, other.headers).post('/jobs', { title: 'Theirs' })).body.data.job
        for (const id of [
          'nope',
          theirs.id,
          encodeURIComponent("1' OR '1'='1"),
          '..%2F..%2Fetc',
          'x'.repeat(150),
        ]) {
          const response = await api.get(`/jobs/${id}`)
          expect(response.status).toBe(404)
          expect(response.body).toEqual({ error: 'Job not found', code: 'NOT_FOUND' })
        }
      })
    })

    describe('PATCH /jobs/:id', () => {
      it('changes only the supplied fields and null clears nullable ones', async () => {
        const created = (
          await api.post('/jobs', {
            title: 'Paint fence',
            description: 'Two coats',
            customerId: customer.id,
            jobLatitude: 53.1,
            jobLongitude: -2.1,
            earliestStart: '2026-11-24T08:00:00Z',
          })
        ).body.data.job
        await new Promise((resolve) => setTimeout(resolve, 5))
        const response = await api.patch(`/jobs/${created.id}`, {
          priority: 'LOW',
          description: null,
          jobLatitude: null,
          jobLongitude: null,
          latestEnd: '2026-11-24T18:00:00Z',
        })
        expect(response.status).toBe(200)
        const job = response.body.data.job
        expect(Object.keys(job).sort()).toEqual([...DETAIL_KEYS].sort())
        expect(job).toMatchObject({
          title: 'Paint fence',
          priority: 'LOW',
          description: null,
          jobLatitude: null,
          jobLongitude: null,
          customerId: customer.id,
          earliestStart: '2026-11-24T08:00:00.000Z',
          latestEnd: '2026-11-24T18:00:00.000Z',
          createdAt: created.createdAt,
        })
        expect(job.updatedAt > created.updatedAt).toBe(true)
        expect((await api.get(`/jobs/${created.id}`)).body.data.job).toEqual(job)
      })

      it('answers every write exactly as a read of the job right after it', async () => {
        // Writes build their answer from what they wrote and read (no second read of the row).
        const db = t.database.db
        const org = tenant.organisationId
        const reads = async (id: string) => (await api.get(`/jobs/${id}`)).body.data.job
        const created = await api.post('/jobs', {
          title: 'Answer check',
          customerId: customer.id,
          locationId: location.id,
          jobLatitude: 53.48,
          jobLongitude: -2.25,
          earliestStart: '2026-12-01T09:00:00+01:00',
          latestEnd: '2026-12-01T11:30:00Z',
        })
        expect(created.status).toBe(201)
        expect(created.body.data.job).toEqual(await reads(created.body.data.job.id))
        const { id } = created.body.data.job
        const user = await makeUser(db, org, { name: 'Sam Okafor', email: 'sam@example.com' })
        await tagJob(db, org, id, (await makeTag(db, org, 'ladder')).id)
        const volume = await makeCapacityDimension(db, org, 'volume_l', 'Volume (l)')
        await addJobDemand(db, org, id, volume.id, 40)
        await setJobState(db, org, id, { status: 'ASSIGNED', assignedUserId: user.id })
        const second = await api.post('/customers', {
          name: 'Second Co',
          address: '1 Quay',
          latitude: 1.5,
          longitude: 2,
        })
        const depot = await makeLocation(db, org, { name: 'South Depot' })
        for (const change of [
          { title: 'Renamed', jobLatitude: 10.1, jobLongitude: 20.2 },
          { customerId: second.body.data.customer.id, locationId: depot.id },
          { customerId: null, description: 'no customer now' },
          { locationId: null, customerId: customer.id, serviceDuration: 60 },
          { title: 'Renamed' },
        ]) {
          const patched = await api.patch(`/jobs/${id}`, change)
          expect(patched.status, JSON.stringify(change)).toBe(200)
          expect(patched.body.data.job, JSON.stringify(change)).toEqual(await reads(id))
        }
        expect((await reads(id)).tags).toHaveLength(1)
      })

      it('leaves updatedAt alone when nothing changes', async () => {
        const created = (await api.post('/jobs', { title: 'Same', priority: 'HIGH' })).body.data.job
        const response = await api.patch(`/jobs/${created.id}`, { title: 'Same', priority: 'HIGH' })
        expect(response.status).toBe(200)
        expect(response.body.data.job.updatedAt).toBe(created.updatedAt)
        expect((await api.patch(`/jobs/${created.id}`, {})).status).toBe(200)
      })

      it('keeps the coordinates a pair on the merged result, naming the missing one', async () => {
        const both = (await api.post('/jobs', { title: 'Pair', jobLatitude: 53.1, jobLongitude: -2.1 })).body
          .data.job
        const halfCleared = await api.patch(`/jobs/${both.id}`, { jobLatitude: null })
        expect(halfCleared.status).toBe(400)
        const hint = '(send both coordinates, or null for both)'
        expect(halfCleared.body).toEqual({
          error: `jobLatitude is required when jobLongitude is set ${hint}`,
          code: 'VALIDATION_ERROR',
          details: [{ path: '/body/jobLatitude', message: `is required when jobLongitude is set ${hint}` }],
        })
        expect((await api.get(`/jobs/${both.id}`)).body.data.job).toEqual(both)
        const none = (await api.post('/jobs', { title: 'No place' })).body.data.job
        const halfSet = await api.patch(`/jobs/${none.id}`, { jobLongitude: -2.2 })
        expect(halfSet.status).toBe(400)
        expect(halfSet.body.error).toBe(`jobLatitude is required when jobLongitude is set ${hint}`)
        expect((await api.get(`/jobs/${none.id}`)).body.data.job).toEqual(none)
        // One coordinate moves alone while the other is stored; both clear together.
        expect((await api.patch(`/jobs/${both.id}`, { jobLatitude: 53.2 })).body.data.job).toMatchObject({
          jobLatitude: '53.2',
          jobLongitude: '-2.1',
        })
        const cleared = await api.patch(`/jobs/${both.id}`, { jobLatitude: null, jobLongitude: null })
        expect(cleared.body.data.job).toMatchObject({ jobLatitude: null, jobLongitude: null })
        const created = await api.post('/jobs', { title: 'x', jobLatitude: 51.5 })
        expect(created.body.error).toBe(`jobLongitude is required when jobLatitude is set ${hint}`)
      })

      it('checks the time window against the stored values', async () => {
        const created = (await api.post('/jobs', { title: 'Window', earliestStart: '2026-11-24T10:00:00Z' }))
          .body.data.job
        const response = await api.patch(`/jobs/${created.id}`, { latestEnd: '2026-11-24T09:00:00Z' })
        expect(response.status).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
        expect((await api.get(`/jobs/${created.id}`)).body.data.job.latestEnd).toBeNull()
        const cleared = await api.patch(`/jobs/${created.id}`, {
          earliestStart: null,
          latestEnd: '2026-11-24T09:00:00Z',
        })
        expect(cleared.status).toBe(200)
      })

      it.each([
        ['empty title', { title: '' }],
        ['null title', { title: null }],
        ['null priority', { priority: null }],
        ['unknown field', { status: 'COMPLETED' }],
        ['unknown customer', { customerId: 'missing' }],
        ['empty customerId', { customerId: '' }],
        ['empty locationId', { locationId: '' }],
      ])('rejects %s with 400 and changes nothing', async (_case, payload) => {
        const created = (await api.post('/jobs', { title: 'Keep me' })).body.data.job
        const response = await api.patch(`/jobs/${created.id}`, payload)
        expect(response.status).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
        expect((await api.get(`/jobs/${created.id}`)).body.data.job).toEqual(created)
      })

      it.each(['COMPLETED', 'CANCELLED'] as const)(
        'refuses a %s job with 422 TERMINAL_STATE',
        async (status) => {
          const created = (await api.post('/jobs', { title: 'Done' })).body.data.job
          await setJobState(t.database.db, tenant.organisationId, created.id, { status })
          const response = await api.patch(`/jobs/${created.id}`, { title: 'Changed' })
          expect(response.status).toBe(422)
          expect(response.body.code).toBe('TERMINAL_STATE')
          expect((await api.get(`/jobs/${created.id}`)).body.data.job.title).toBe('Done')
        },
      )

      it.each(['ASSIGNED', 'IN_PROGRESS'] as const)('allows editing a %s job', async (status) => {
        const created = (await api.post('/jobs', { title: 'Busy' })).body.data.job
        await setJobState(t.database.db, tenant.organisationId, created.id, { status })
        expect((await api.patch(`/jobs/${created.id}`, { title: 'Busier' })).status).toBe(200)
      })

      it("is 404 for unknown, deleted and other organisations' jobs, which stay unchanged", async () => {
        const theirs = (await client(t, other.headers).post('/jobs', { title: 'Theirs' })).body.data.job
        const response = await api.patch(`/jobs/${theirs.id}`, { title: 'Mine now' })
        expect(response.status).toBe(404)
        expect(response.body.code).toBe('NOT_FOUND')
        expect((await client(t, other.headers).get(`/jobs/${theirs.id}`)).body.data.job.title).toBe('Theirs')
        expect((await api.patch('/jobs/missing', { title: 'x' })).status).toBe(404)
      })
    })

    describe('DELETE /jobs/:id', () => {
      it('soft-deletes: 200 with id and deletedAt, then 404 everywhere and gone from lists', async () => {
        const created = (await api.post('/jobs', { title: 'Temporary', priority: 'LOW' })).body.data.job
        const before = (await api.get('/jobs?priority=LOW')).body.data.pagination.total
        const response = await api.delete(`/jobs/${created.id}`)
        expect(response.status).toBe(200)
        expect(response.body).toEqual({
          data: { job: { id: created.id, deletedAt: expect.stringMatching(ISO_MS) } },
          message: 'Success',
        })
        expect((await api.get(`/jobs/${created.id}`)).status).toBe(404)
        expect((await api.patch(`/jobs/${created.id}`, { title: 'x' })).status).toBe(404)
        expect((await api.delete(`/jobs/${created.id}`)).status).toBe(404)
        const after = (await api.get('/jobs?priority=LOW&limit=100')).body.data
        expect(after.pagination.total).toBe(before - 1)
        expect(after.jobs.map((j: { id: string }) => j.id)).not.toContain(created.id)
        const row = await t.database.db
          .selectFrom('jobs')
          .select('deleted_at')
          .where('id', '=', created.id)
          .executeTakeFirst()
        expect(row?.deleted_at).toBe(response.body.data.job.deletedAt)
      })

      it('refuses a job in progress with 422 JOB_IN_PROGRESS', async () => {
        const created = (await api.post('/jobs', { title: 'Underway' })).body.data.job
        await setJobState(t.database.db, tenant.organisationId, created.id, { status: 'IN_PROGRESS' })
        const response = await api.delete(`/jobs/${created.id}`)
        expect(response.status).toBe(422)
        expect(response.body.code).toBe('JOB_IN_PROGRESS')
        expect((await api.get(`/jobs/${created.id}`)).status).toBe(200)
      })

      it.each(['CREATED', 'ASSIGNED', 'COMPLETED', 'CANCELLED'] as const)(
        'deletes a %s job',
        async (status) => {
          const created = (await api.post('/jobs', { title: 'Deletable' })).body.data.job
          await setJobState(t.database.db, tenant.organisationId, created.id, { status })
          expect((await api.delete(`/jobs/${created.id}`)).status).toBe(200)
        },
      )

      it("is 404 for another organisation's job, which survives", async () => {
        const theirs = (await client(t, other.headers).post('/jobs', { title: 'Theirs' })).body.data.job
        expect((await api.delete(`/jobs/${theirs.id}`)).status).toBe(404)
        expect((await client(t, other.headers).get(`/jobs/${theirs.id}`)).status).toBe(200)
      })
    })
  })
}
