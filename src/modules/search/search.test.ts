// The header search (GET /v1/admin/search): jobs by number (J-1042 or 1042), by title, by their own
// address and by their customer; customers by name, address, email and phone digits ("07700 900123"
// finds +447700900123);
// ranked; limit default 10, max 25; never another organisation's rows. Customer notes: optional,
// nullable, at most 2000 characters, on both APIs.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'
import { rebuildDerivedCounts } from '../../db/derived.js'

const PLACE = { latitude: 53.48, longitude: -2.24 }

interface Found {
  jobs: { id: string; number: string; title: string; customerName: string | null }[]
  customers: { id: string; name: string; phone: string | null }[]
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: search`, () => {
    let t: TestContext
    let tenant: TestTenant
    let other: TestTenant
    const customers = {} as Record<'bakery' | 'florist' | 'garage', string>
    const jobs = {} as Record<'valve' | 'service' | 'tap', { id: string; number: string }>

    const search = async (q: string, as = tenant, extra = ''): Promise<Found> => {
      const response = await adminClient(t, as.headers).get(`/search?q=${encodeURIComponent(q)}${extra}`)
      expect(response.status, JSON.stringify(response.body)).toBe(200)
      return response.body.data
    }

    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      other = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const api = client(t, tenant.headers)
      for (const [key, body] of [
        ['bakery', { name: 'Northern Quarter Bakery', address: '41 Oldham Street', phone: '+447700900123' }],
        ['florist', { name: 'Bloom Florist', address: '3 Kingsway', email: 'hello@bloom.example' }],
        ['garage', { name: 'Quarter Garage', address: '9 Mill Lane' }],
      ] as const) {
        const created = await api.post('/customers', { ...PLACE, ...body })
        expect(created.status).toBe(201)
        customers[key] = created.body.data.customer.id
      }
      for (const [key, body] of [
        ['valve', { title: 'Replace boiler valve', customerId: customers.bakery }],
        ['service', { title: 'Annual boiler service', customerId: customers.florist }],
        ['tap', { title: 'Leaking tap', customerId: customers.garage }],
      ] as const) {
        const created = await api.post('/jobs', body)
        jobs[key] = created.body.data.job
      }
      // Another organisation with the same names, phone and titles: never found by the first.
      const theirs = client(t, other.headers)
      const twin = await theirs.post('/customers', {
        ...PLACE,
        name: 'Northern Quarter Bakery',
        phone: '+447700900123',
        email: 'hello@bloom.example',
      })
      await theirs.post('/jobs', { title: 'Replace boiler valve', customerId: twin.body.data.customer.id })
    })
    afterAll(() => t.close())

    it('finds a job by its number, with or without J-', async () => {
      for (const q of [jobs.tap.number, jobs.tap.number.slice(2), jobs.tap.number.toLowerCase()]) {
        expect((await search(q)).jobs[0]).toMatchObject({ id: jobs.tap.id, title: 'Leaking tap' })
      }
    })

    it('finds jobs by title, titles starting with the text first', async () => {
      const found = await search('BOILER')
      expect(found.jobs.map((job) => job.id).sort()).toEqual([jobs.valve.id, jobs.service.id].sort())
      expect((await search('replace')).jobs.map((job) => job.id)).toEqual([jobs.valve.id])
      const ranked = await search('boiler s')
      expect(ranked.jobs.map((job) => job.id)).toEqual([jobs.service.id])
    })

    it('finds customers by name, address and email, names starting with the text first', async () => {
      expect((await search('quarter')).customers.map((c) => c.name)).toEqual([
        'Quarter Garage',
        'Northern Quarter Bakery',
      ])
      expect((await search('oldham st')).customers.map((c) => c.id)).toEqual([customers.bakery])
      expect((await search('bloom.exa')).customers.map((c) => c.id)).toEqual([customers.florist])
    })

    it('finds a customer and their jobs by the phone’s digits, however they are written', async () => {
      for (const q of ['7700 900123', '+44 7700-900123', '07700 900123', '0044 7700 900123', '900123']) {
        const found = await search(q)
        expect(
          found.customers.map((c) => c.id),
          q,
        ).toEqual([customers.bakery])
        expect(
          found.jobs.map((job) => job.id),
          q,
        ).toEqual([jobs.valve.id])
        expect(found.jobs[0]?.customerName).toBe('Northern Quarter Bakery')
      }
    })

    it('finds the jobs of the customers it finds (by name or email)', async () => {
      expect((await search('florist')).jobs.map((job) => job.id)).toEqual([jobs.service.id])
      expect((await search('hello@bloom')).jobs.map((job) => job.id)).toEqual([jobs.service.id])
    })

    it('never finds another organisation’s jobs or customers', async () => {
      const mine = await search('boiler valve')
      expect(mine.jobs.map((job) => job.id)).toEqual([jobs.valve.id])
      const theirs = await search('7700900123', other)
      expect(theirs.customers).toHaveLength(1)
      expect(theirs.customers[0]?.id).not.toBe(customers.bakery)
      expect(theirs.jobs.map((job) => job.id)).not.toContain(jobs.valve.id)
      expect((await search(jobs.tap.number, other)).jobs).toEqual([])
      expect((await search('kingsway', other)).customers).toEqual([])
    })

    it('finds nothing in text shorter than 3 characters; limit defaults to 10, at most 25', async () => {
      expect(await search('bo')).toEqual({ jobs: [], customers: [] })
      expect((await search('a', tenant, '&limit=1')).jobs).toEqual([])
      const api = adminClient(t, tenant.headers)
      expect((await api.get('/search?q=boiler&limit=26')).status).toBe(400)
      expect((await api.get('/search?q=')).status).toBe(400)
      expect((await api.get('/search')).status).toBe(400)
      expect((await search('boiler', tenant, '&limit=1')).jobs).toHaveLength(1)
      const many = client(t, tenant.headers)
      for (let i = 0; i < 12; i++) await many.post('/jobs', { title: `Radiator bleed ${i}` })
      expect((await search('radiator')).jobs).toHaveLength(10)
      expect((await search('radiator', tenant, '&limit=25')).jobs).toHaveLength(12)
    })

    it('a title changed or a job deleted is searched as it is now', async () => {
      const api = client(t, tenant.headers)
      const job = (await api.post('/jobs', { title: 'Fit thermostat' })).body.data.job
      await api.patch(`/jobs/${job.id}`, { title: 'Fit smart controller' })
      expect((await search('thermostat')).jobs).toEqual([])
      expect((await search('smart contr')).jobs.map((found) => found.id)).toEqual([job.id])
      await api.delete(`/jobs/${job.id}`)
      expect((await search('smart contr')).jobs).toEqual([])
      expect((await search(job.number)).jobs).toEqual([])
    })

    it('finds a job by its own address (migration 0028), as it is now, never another organisation’s', async () => {
      const api = client(t, tenant.headers)
      const delivery = { title: 'Deliver cylinder', jobLatitude: 53.46, jobLongitude: -2.29 }
      const job = (await api.post('/jobs', { ...delivery, address: 'Unit 4, Westinghouse Road' })).body.data
        .job
      await client(t, other.headers).post('/jobs', { ...delivery, address: 'Westinghouse Road' })
      const found = await search('WESTINGHOUSE')
      expect(found.jobs.map((one) => one.id)).toEqual([job.id])
      expect(found.jobs[0]?.customerName).toBeNull()
      await api.patch(`/jobs/${job.id}`, { address: '12 Bredbury Park Way' })
      expect((await search('westinghouse')).jobs).toEqual([])
      expect((await search('bredbury park')).jobs.map((one) => one.id)).toEqual([job.id])
      await api.patch(`/jobs/${job.id}`, { address: null })
      expect((await search('bredbury park')).jobs).toEqual([])
      // The title still finds it with the address gone.
      expect((await search('cylinder')).jobs.map((one) => one.id)).toEqual([job.id])
    })

    // A bulk load (the benchmark's dataset) bypasses the triggers and then rebuilds what they keep;
    // on SQLite that includes the trigram tables the search reads, with every column they index.
    it('finds the same after the derived tables are rebuilt from the base tables', async () => {
      const api = client(t, tenant.headers)
      const job = (await api.post('/jobs', { title: 'Deliver radiator', address: '7 Ancoats Lane' })).body
        .data.job
      const queries = ['7700 900123', 'bloom.exa', 'oldham st', 'boiler valve', 'ancoats lane', job.number]
      const before = await Promise.all(queries.map((q) => search(q)))
      expect(before.map((found) => found.jobs.length + found.customers.length)).not.toContain(0)
      const db = t.database.db
      const tables = ['customers_trigram', 'customers_trigram_ids', 'jobs_trigram', 'jobs_trigram_ids']
      const schemaOf = () =>
        sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name IN (${sql.join(tables)}) ORDER BY name`
          .execute(db)
          .then((result) => result.rows.map((row) => row.sql))
      const migrated = dialect === 'sqlite' ? await schemaOf() : []
      if (dialect === 'sqlite') {
        for (const table of tables) await sql`DELETE FROM ${sql.table(table)}`.execute(db)
        expect((await search('ancoats lane')).jobs).toEqual([])
      }
      await rebuildDerivedCounts(db)
      expect(await Promise.all(queries.map((q) => search(q)))).toEqual(before)
      if (dialect === 'sqlite') expect(await schemaOf()).toEqual(migrated)
      // And the triggers still keep the rebuilt tables in step.
      await api.patch(`/jobs/${job.id}`, { address: '9 Cotton Street' })
      expect((await search('cotton street')).jobs.map((one) => one.id)).toEqual([job.id])
    })

    for (const which of ['public', 'admin'] as const) {
      it(`${which}: customer notes are optional, nullable and at most 2000 characters`, async () => {
        const api = which === 'public' ? client(t, tenant.headers) : adminClient(t, tenant.headers)
        const created = await api.post('/customers', { ...PLACE, name: 'Notes Ltd', notes: 'Gate code 4412' })
        expect(created.status).toBe(201)
        const customer = created.body.data.customer
        expect(customer.notes).toBe('Gate code 4412')
        expect(
          (await api.post('/customers', { ...PLACE, name: 'No notes' })).body.data.customer.notes,
        ).toBeNull()
        expect((await api.get(`/customers/${customer.id}`)).body.data.customer.notes).toBe('Gate code 4412')
        const tooLong = await api.patch(`/customers/${customer.id}`, { notes: 'x'.repeat(2001) })
        expect(tooLong.status).toBe(400)
        expect(JSON.stringify(tooLong.body)).toContain('/body/notes')
        expect((await api.post('/customers', { ...PLACE, name: 'Wrong', notes: 42 })).status).toBe(400)
        const longest = await api.patch(`/customers/${customer.id}`, { notes: 'y'.repeat(2000) })
        expect(longest.body.data.customer.notes).toHaveLength(2000)
        const cleared = await api.patch(`/customers/${customer.id}`, { notes: null })
        expect(cleared.body.data.customer.notes).toBeNull()
      })
    }
  })
}
