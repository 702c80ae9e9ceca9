import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

const CUSTOMERS_CSV = [
  'externalId,name,address,latitude,longitude,email',
  'C-1,Northern Bakery,"41 Oldham Street, Manchester",53.4839,-2.2346,orders@bakery.example',
  'C-2,Corner Shop,1 High St,51.5,-0.12,',
  'C-3,,No Name Road,51.5,-0.12,',
  'C-4,Bad Latitude,Somewhere,ninety,-0.12,',
  'C-5,Bad Email,Somewhere,51.5,-0.12,not-an-email',
].join('\n')

for (const dialect of DIALECTS) {
  describe(`${dialect}: CSV imports`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function tenant() {
      const created = await createTenant(t, { scopes: ['admin'] })
      return { ...created, admin: adminClient(t, created.headers), api: client(t, created.headers) }
    }

    /** Starts an import and sends its file: the finished import. */
    async function runImport(
      headers: Record<string, string>,
      body: { kind: string; dryRun?: boolean; mapping?: Record<string, string> },
      csv: string,
    ) {
      const started = await adminClient(t, headers).post('/imports', body)
      expect(started.status).toBe(201)
      expect(started.body.data.import.status).toBe('PENDING')
      const sent = await t.app.inject({
        method: 'PUT',
        url: `/v1/admin/imports/${started.body.data.import.id}/file`,
        headers: { ...headers, 'content-type': 'text/csv' },
        payload: csv,
      })
      expect(sent.statusCode).toBe(200)
      return sent.json().data.import
    }

    const outboxCount = async (organisationId: string, event: string) =>
      Number(
        (
          await t.database.db
            .selectFrom('outbox_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('organisation_id', '=', organisationId)
            .where('event', '=', event)
            .executeTakeFirstOrThrow()
        ).n,
      )

    it('dry run: counts, per-row errors naming row and field, a sample, and writes nothing', async () => {
      const { headers, admin } = await tenant()
      const result = await runImport(headers, { kind: 'customers', dryRun: true }, CUSTOMERS_CSV)
      expect(result).toMatchObject({ status: 'SUCCEEDED', dryRun: true, processed: 5, created: 2, failed: 3 })
      expect(result.errors).toEqual([
        expect.objectContaining({ row: 4, field: 'name', code: 'VALIDATION_ERROR' }),
        expect.objectContaining({ row: 5, field: 'latitude', code: 'VALIDATION_ERROR' }),
        expect.objectContaining({ row: 6, field: 'email', code: 'VALIDATION_ERROR' }),
      ])
      expect(result.sample[0]).toEqual({
        externalId: 'C-1',
        name: 'Northern Bakery',
        address: '41 Oldham Street, Manchester',
        latitude: 53.4839,
        longitude: -2.2346,
        email: 'orders@bakery.example',
      })
      expect(result.bytesRead).toBe(Buffer.byteLength(CUSTOMERS_CSV))
      const listed = await admin.get('/customers')
      expect(listed.body.data.customers).toEqual([])
    })

    it('imports valid rows, and the same file again changes nothing; a changed file updates', async () => {
      const { headers, admin } = await tenant()
      const first = await runImport(headers, { kind: 'customers' }, CUSTOMERS_CSV)
      expect(first).toMatchObject({ status: 'SUCCEEDED', created: 2, updated: 0, unchanged: 0, failed: 3 })
      const before = (await admin.get('/customers')).body.data.customers
      expect(before.map((c: { externalId: string }) => c.externalId).sort()).toEqual(['C-1', 'C-2'])

      const again = await runImport(headers, { kind: 'customers' }, CUSTOMERS_CSV)
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2, failed: 3 })
      expect((await admin.get('/customers')).body.data.customers).toEqual(before)

      const changed = CUSTOMERS_CSV.replace('1 High St', '2 High St')
      const third = await runImport(headers, { kind: 'customers' }, changed)
      expect(third).toMatchObject({ created: 0, updated: 1, unchanged: 1 })
      const shop = (await admin.get('/customers?search=corner')).body.data.customers[0]
      expect(shop).toMatchObject({ externalId: 'C-2', address: '2 High St' })
    })

    it('maps headers, refuses unknown fields, and fails a file missing a mapped column', async () => {
      const { headers, admin } = await tenant()
      const csv = 'Account,Company,Lat,Lng\nA-9,Mapped Ltd,52.1,-1.5\n'
      const mapping = { externalId: 'account', name: 'COMPANY', latitude: 'Lat', longitude: 'Lng' }
      const result = await runImport(headers, { kind: 'customers', mapping }, csv)
      expect(result).toMatchObject({ status: 'SUCCEEDED', created: 1, failed: 0 })

      const unknown = await admin.post('/imports', { kind: 'customers', mapping: { colour: 'Colour' } })
      expect(unknown.status).toBe(400)
      expect(unknown.body.code).toBe('VALIDATION_ERROR')
      expect(unknown.body.error).toMatch(/mapping\.colour/)

      const missing = await runImport(headers, { kind: 'customers', mapping: { name: 'Firm' } }, csv)
      expect(missing.status).toBe('FAILED')
      expect(missing.failure).toMatch(/no column "Firm"/)
    })

    it('a file is sent once; another organisation sees neither the import nor can send it', async () => {
      const { headers, admin } = await tenant()
      const other = await tenant()
      const started = (await admin.post('/imports', { kind: 'customers' })).body.data.import
      const put = (h: Record<string, string>) =>
        t.app.inject({
          method: 'PUT',
          url: `/v1/admin/imports/${started.id}/file`,
          headers: { ...h, 'content-type': 'text/csv' },
          payload: 'externalId,name,latitude,longitude\nX,Y,1,2\n',
        })
      expect((await other.admin.get(`/imports/${started.id}`)).status).toBe(404)
      expect((await put(other.headers)).statusCode).toBe(404)
      const json = await t.app.inject({
        method: 'PUT',
        url: `/v1/admin/imports/${started.id}/file`,
        headers,
        payload: { externalId: 'X' },
      })
      expect(json.statusCode).toBe(415)
      const keyed = await t.app.inject({
        method: 'PUT',
        url: `/v1/admin/imports/${started.id}/file`,
        headers: { ...headers, 'content-type': 'text/csv', 'idempotency-key': `file-${started.id}` },
        payload: 'externalId,name,latitude,longitude\nX,Y,1,2\n',
      })
      expect(keyed.statusCode).toBe(200)
      const second = await put(headers)
      expect(second.statusCode).toBe(409)
      expect(second.json().code).toBe('CONFLICT')
      expect((await admin.get(`/imports/${started.id}`)).body.data.import).toMatchObject({
        status: 'SUCCEEDED',
        created: 1,
      })
    })

    it('externalId is unique per organisation on POST and PATCH (409 naming the field)', async () => {
      const { api } = await tenant()
      const other = await tenant()
      const body = { name: 'A', latitude: 1, longitude: 2, externalId: 'ERP-1' }
      expect((await api.post('/customers', body)).status).toBe(201)
      expect((await other.api.post('/customers', body)).status).toBe(201)
      const taken = await api.post('/customers', body)
      expect(taken.status).toBe(409)
      expect(taken.body).toMatchObject({ code: 'CONFLICT', error: expect.stringMatching(/externalId/) })
      const b = (await api.post('/customers', { ...body, externalId: 'ERP-2' })).body.data.customer
      expect((await api.patch(`/customers/${b.id}`, { externalId: 'ERP-1' })).status).toBe(409)
      expect(
        (await api.patch(`/customers/${b.id}`, { externalId: null })).body.data.customer.externalId,
      ).toBe(null)
      const job = await api.post('/jobs', { title: 'T', externalId: 'J-ERP' })
      expect(job.status).toBe(201)
      expect(job.body.data.job.externalId).toBe('J-ERP')
      const dup = await api.post('/jobs', { title: 'T2', externalId: 'J-ERP' })
      expect(dup.status).toBe(409)
      expect(dup.body.code).toBe('CONFLICT')
    })

    it('jobs: customer by externalId, JOB_CREATED once per new job, none for an unchanged file', async () => {
      const { headers, admin, organisationId } = await tenant()
      await runImport(
        headers,
        { kind: 'customers' },
        'externalId,name,latitude,longitude\nC-1,Bakery,53.4,-2.2\n',
      )
      const csv = [
        'externalId,title,customerExternalId,priority,earliestStart,latestEnd,serviceDuration',
        'J-1,Service boiler,C-1,HIGH,2026-12-01T09:00:00Z,2026-12-01T12:00:00Z,1800',
        'J-2,Fix tap,,NORMAL,,,',
        'J-3,Unknown customer,C-404,NORMAL,,,',
        'J-4,Backwards window,,NORMAL,2026-12-01T12:00:00Z,2026-12-01T09:00:00Z,',
        ',No reference,,NORMAL,,,',
      ].join('\n')
      const dry = await runImport(headers, { kind: 'jobs', dryRun: true }, csv)
      expect(dry).toMatchObject({ created: 2, failed: 3 })
      expect(await outboxCount(organisationId, 'JOB_CREATED')).toBe(0)

      const first = await runImport(headers, { kind: 'jobs' }, csv)
      expect(first).toMatchObject({ status: 'SUCCEEDED', created: 2, updated: 0, unchanged: 0, failed: 3 })
      expect(first.errors).toEqual([
        expect.objectContaining({ row: 4, field: 'customerExternalId', code: 'VALIDATION_ERROR' }),
        expect.objectContaining({ row: 5, field: 'latestEnd', code: 'VALIDATION_ERROR' }),
        expect.objectContaining({ row: 6, field: 'externalId', code: 'VALIDATION_ERROR' }),
      ])
      expect(await outboxCount(organisationId, 'JOB_CREATED')).toBe(2)
      const jobs = (await admin.get('/jobs')).body.data.jobs
      const boiler = jobs.find((j: { externalId: string }) => j.externalId === 'J-1')
      expect(boiler).toMatchObject({ priority: 'HIGH', serviceDuration: 1800, customer: { name: 'Bakery' } })

      const again = await runImport(headers, { kind: 'jobs' }, csv)
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2 })
      expect(await outboxCount(organisationId, 'JOB_CREATED')).toBe(2)
      expect(await outboxCount(organisationId, 'JOB_UPDATED')).toBe(0)

      const changed = await runImport(headers, { kind: 'jobs' }, csv.replace('Fix tap', 'Fix the tap'))
      expect(changed).toMatchObject({ created: 0, updated: 1, unchanged: 1 })
      expect(await outboxCount(organisationId, 'JOB_UPDATED')).toBe(1)
    })

    it('10,000 customer rows import in one go, and again with nothing changed', async () => {
      const { headers, organisationId } = await tenant()
      const lines = ['externalId,name,address,latitude,longitude,serviceDuration,priority']
      for (let i = 0; i < 10_000; i++) {
        lines.push(
          `K-${i},Customer ${i},"${i} Long Road, Town",${(50 + (i % 500) / 1000).toFixed(3)},-1.5,1200,LOW`,
        )
      }
      const csv = lines.join('\n')
      const first = await runImport(headers, { kind: 'customers' }, csv)
      expect(first).toMatchObject({ status: 'SUCCEEDED', processed: 10_000, created: 10_000, failed: 0 })
      const second = await runImport(headers, { kind: 'customers' }, csv)
      expect(second).toMatchObject({
        processed: 10_000,
        created: 0,
        updated: 0,
        unchanged: 10_000,
        failed: 0,
      })
      const { n } = await t.database.db
        .selectFrom('customers')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('organisation_id', '=', organisationId)
        .executeTakeFirstOrThrow()
      expect(Number(n)).toBe(10_000)
    }, 600_000)
  })
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: CSV exports`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('streams the filtered list as CSV, formula-safe, and only the caller’s organisation', async () => {
      const { headers } = await createTenant(t, { scopes: ['admin'] })
      const other = await createTenant(t, { scopes: ['admin'] })
      const api = client(t, headers)
      const c1 = (
        await api.post('/customers', { name: '=HYPERLINK("x")', latitude: 1, longitude: 2, externalId: 'E1' })
      ).body.data.customer
      await api.post('/customers', { name: 'Plain, with comma', latitude: 1, longitude: 2 })
      await client(t, other.headers).post('/customers', { name: 'Not mine', latitude: 1, longitude: 2 })
      await api.post('/jobs', { title: 'High one', priority: 'HIGH', customerId: c1.id })
      await api.post('/jobs', { title: 'Low one', priority: 'LOW' })

      const get = (url: string) => t.app.inject({ method: 'GET', url: `/v1/admin${url}`, headers })
      const customers = await get('/customers/export.csv')
      expect(customers.statusCode).toBe(200)
      expect(customers.headers['content-type']).toMatch(/^text\/csv/)
      const lines = customers.body.trim().split('\n')
      expect(lines[0]).toMatch(/^id,externalId,name,address,/)
      expect(lines).toHaveLength(3)
      expect(customers.body).toContain(`,E1,"'=HYPERLINK(""x"")",`)
      expect(customers.body).toContain('"Plain, with comma"')
      // A negative coordinate is a number, not a formula: left as it is.
      await api.post('/customers', { name: '-1 minus', latitude: 1, longitude: -2.5 })
      const again = (await get('/customers/export.csv?search=minus')).body
      expect(again).toContain(",'-1 minus,")
      expect(again).toContain(',1,-2.5,')
      expect(customers.body).not.toContain('Not mine')

      const searched = await get('/customers/export.csv?search=plain')
      expect(searched.body.trim().split('\n')).toHaveLength(2)

      const high = await get('/jobs/export.csv?priority=HIGH')
      expect(high.statusCode).toBe(200)
      const jobLines = high.body.trim().split('\n')
      expect(jobLines).toHaveLength(2)
      expect(jobLines[1]).toContain('High one')
      expect((await get('/jobs/export.csv?priority=URGENTISH')).statusCode).toBe(400)
    })

    it('exports exactly what the Jobs list shows: its day in a time zone and its title search', async () => {
      const { headers } = await createTenant(t, { scopes: ['admin'] })
      const api = client(t, headers)
      const at = (start: string, end: string) => ({ earliestStart: start, latestEnd: end })
      // 23:30 UTC on the 1st is the 2nd in Auckland (UTC+13 in December).
      await api.post('/jobs', { title: 'Boiler late', ...at('2026-12-01T23:30:00Z', '2026-12-01T23:50:00Z') })
      await api.post('/jobs', {
        title: 'Boiler morning',
        ...at('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'),
      })
      await api.post('/jobs', {
        title: 'Drain morning',
        ...at('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z'),
      })
      await api.post('/jobs', { title: 'Boiler undated' })

      const titles = async (query: string) => {
        const csv = await t.app.inject({ method: 'GET', url: `/v1/admin/jobs/export.csv?${query}`, headers })
        expect(csv.statusCode, csv.body).toBe(200)
        const listed = await t.app.inject({
          method: 'GET',
          url: `/v1/admin/jobs?limit=100&${query}`,
          headers,
        })
        const exported = csv.body
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => line.split(',')[3])
          .sort()
        // The list and the download agree.
        expect(exported).toEqual(
          listed
            .json()
            .data.jobs.map((j: { title: string }) => j.title)
            .sort(),
        )
        return exported
      }
      expect(await titles('targetDate=2026-12-01')).toEqual([
        'Boiler late',
        'Boiler morning',
        'Drain morning',
      ])
      expect(await titles('targetDate=2026-12-02&timeZone=Pacific/Auckland')).toEqual(['Boiler late'])
      expect(await titles('targetDate=2026-12-01&timeZone=Pacific/Auckland')).toEqual([
        'Boiler morning',
        'Drain morning',
      ])
      expect(await titles('search=boiler')).toEqual(['Boiler late', 'Boiler morning', 'Boiler undated'])
      expect(await titles('search=BOILER&targetDate=2026-12-01')).toEqual(['Boiler late', 'Boiler morning'])
      expect(await titles('search=100%25')).toEqual([])

      const bad = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/jobs/export.csv?targetDate=2026-12-01&timeZone=Mars/Olympus',
        headers,
      })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().details[0].path).toBe('/query/timeZone')
    })
  })
}
