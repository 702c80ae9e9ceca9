import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'

const CUSTOMER_KEYS = [
  'id',
  'name',
  'address',
  'latitude',
  'longitude',
  'serviceDuration',
  'priority',
  'timeWindowType',
  'operationalStart',
  'operationalEnd',
  'email',
  'phone',
  'notes',
  'createdAt',
  'updatedAt',
  'externalId',
].sort()

for (const dialect of DIALECTS) {
  describe(`${dialect}: customers`, () => {
    let t: TestContext
    let tenant: TestTenant
    let api: ReturnType<typeof client>
    let otherApi: ReturnType<typeof client>

    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t)
      api = client(t, tenant.headers)
      otherApi = client(t, (await createTenant(t)).headers)
    })
    afterAll(() => t.close())

    it('creates with defaults for every optional field', async () => {
      const response = await api.post('/customers', { name: 'Corner Shop', latitude: 51.5, longitude: -0.12 })
      expect(response.status).toBe(201)
      const customer = response.body.data.customer
      expect(Object.keys(customer).sort()).toEqual(CUSTOMER_KEYS)
      expect(customer).toMatchObject({
        name: 'Corner Shop',
        address: '',
        latitude: '51.5',
        longitude: '-0.12',
        serviceDuration: 900,
        priority: 'NORMAL',
        timeWindowType: 'HARD',
        operationalStart: '00:00',
        operationalEnd: '23:59',
        email: null,
        phone: null,
      })
      expect(customer.updatedAt).toBe(customer.createdAt)
      expect((await api.get(`/customers/${customer.id}`)).body).toEqual({
        data: { customer },
        message: 'Success',
      })
    })

    it('stores every field exactly', async () => {
      const response = await api.post('/customers', {
        name: 'Müller Bäckerei',
        address: '3 Königsallee, Düsseldorf',
        latitude: -33.8688197,
        longitude: 151.2092955,
        serviceDuration: 2700,
        priority: 'HIGH',
        timeWindowType: 'SOFT',
        operationalStart: '07:30',
        operationalEnd: '18:00',
      })
      expect(response.status).toBe(201)
      expect(response.body.data.customer).toMatchObject({
        name: 'Müller Bäckerei',
        address: '3 Königsallee, Düsseldorf',
        latitude: '-33.8688197',
        longitude: '151.2092955',
        serviceDuration: 2700,
        priority: 'HIGH',
        timeWindowType: 'SOFT',
        operationalStart: '07:30',
        operationalEnd: '18:00',
      })
    })

    it.each([
      ['name missing', { latitude: 1, longitude: 1 }, '/body/name'],
      ['name empty', { name: '', latitude: 1, longitude: 1 }, '/body/name'],
      ['latitude missing', { name: 'x', longitude: 1 }, '/body/latitude'],
      ['longitude missing', { name: 'x', latitude: 1 }, '/body/longitude'],
      ['latitude too big', { name: 'x', latitude: 91, longitude: 1 }, '/body/latitude'],
      ['longitude too small', { name: 'x', latitude: 1, longitude: -180.0001 }, '/body/longitude'],
      ['latitude as string', { name: 'x', latitude: '1', longitude: 1 }, '/body/latitude'],
      [
        'opening hour 24:00',
        { name: 'x', latitude: 1, longitude: 1, operationalStart: '24:00' },
        '/body/operationalStart',
      ],
      [
        'opening time 7:30',
        { name: 'x', latitude: 1, longitude: 1, operationalStart: '7:30' },
        '/body/operationalStart',
      ],
      [
        'closing 12:60',
        { name: 'x', latitude: 1, longitude: 1, operationalEnd: '12:60' },
        '/body/operationalEnd',
      ],
      [
        'negative duration',
        { name: 'x', latitude: 1, longitude: 1, serviceDuration: -5 },
        '/body/serviceDuration',
      ],
      ['bad priority', { name: 'x', latitude: 1, longitude: 1, priority: 'high' }, '/body/priority'],
      [
        'opening after closing',
        { name: 'x', latitude: 1, longitude: 1, operationalStart: '18:00', operationalEnd: '08:00' },
        '/body/operationalEnd',
      ],
      [
        'opening equal to closing',
        { name: 'x', latitude: 1, longitude: 1, operationalStart: '09:00', operationalEnd: '09:00' },
        '/body/operationalEnd',
      ],
      [
        'closing at midnight',
        { name: 'x', latitude: 1, longitude: 1, operationalEnd: '00:00' },
        '/body/operationalEnd',
      ],
      ['unknown field', { name: 'x', latitude: 1, longitude: 1, website: 'https://b.c' }, '/body/website'],
    ])('rejects %s with 400 and creates nothing', async (_case, payload, path) => {
      const before = (await api.get('/customers')).body.data.pagination.total
      const response = await api.post('/customers', payload)
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path)
      expect((await api.get('/customers')).body.data.pagination.total).toBe(before)
    })

    it('PATCH changes only supplied fields', async () => {
      const created = (
        await api.post('/customers', { name: 'Patch Me', latitude: 10, longitude: 20, address: 'Old Street' })
      ).body.data.customer
      await new Promise((resolve) => setTimeout(resolve, 5))
      const response = await api.patch(`/customers/${created.id}`, { address: 'New Street', latitude: 10.25 })
      expect(response.status).toBe(200)
      expect(response.body.data.customer).toEqual({
        ...created,
        address: 'New Street',
        latitude: '10.25',
        updatedAt: expect.any(String),
      })
      expect(response.body.data.customer.updatedAt > created.updatedAt).toBe(true)
      const unchanged = await api.patch(`/customers/${created.id}`, { name: 'Patch Me' })
      expect(unchanged.body.data.customer.updatedAt).toBe(response.body.data.customer.updatedAt)
    })

    it('keeps operationalStart before operationalEnd on the merged result, naming the field sent', async () => {
      const created = (
        await api.post('/customers', {
          name: 'Shop',
          latitude: 1,
          longitude: 2,
          operationalStart: '09:00',
          operationalEnd: '17:00',
        })
      ).body.data.customer
      const lateStart = await api.patch(`/customers/${created.id}`, { operationalStart: '17:00' })
      expect(lateStart.status).toBe(400)
      expect(lateStart.body).toEqual({
        error: 'operationalStart must be before operationalEnd (17:00)',
        code: 'VALIDATION_ERROR',
        details: [{ path: '/body/operationalStart', message: 'must be before operationalEnd (17:00)' }],
      })
      const earlyEnd = await api.patch(`/customers/${created.id}`, { operationalEnd: '08:59' })
      expect(earlyEnd.body.error).toBe('operationalEnd must be after operationalStart (09:00)')
      expect((await api.get(`/customers/${created.id}`)).body.data.customer).toEqual(created)
      // Moving both together is judged on the result, not on each half.
      const moved = await api.patch(`/customers/${created.id}`, {
        operationalStart: '18:00',
        operationalEnd: '22:00',
      })
      expect(moved.status).toBe(200)
      expect(moved.body.data.customer).toMatchObject({ operationalStart: '18:00', operationalEnd: '22:00' })
      const created2 = await api.post('/customers', {
        name: 'x',
        latitude: 1,
        longitude: 1,
        operationalStart: '23:59',
      })
      expect(created2.body.error).toBe('operationalStart must be before operationalEnd (23:59)')
    })

    it.each([
      ['empty name', { name: '' }],
      ['null name', { name: null }],
      ['null latitude', { latitude: null }],
      ['bad time', { operationalEnd: '25:00' }],
      ['unknown field', { id: 'new-id' }],
    ])('PATCH rejects %s with 400 and changes nothing', async (_case, payload) => {
      const created = (await api.post('/customers', { name: 'Stable', latitude: 1, longitude: 2 })).body.data
        .customer
      const response = await api.patch(`/customers/${created.id}`, payload)
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect((await api.get(`/customers/${created.id}`)).body.data.customer).toEqual(created)
    })

    it("is 404 for unknown customers and another organisation's", async () => {
      const theirs = (await otherApi.post('/customers', { name: 'Theirs', latitude: 1, longitude: 1 })).body
        .data.customer
      for (const id of ['missing', theirs.id]) {
        expect(await api.get(`/customers/${id}`)).toMatchObject({
          status: 404,
          body: { error: 'Customer not found', code: 'NOT_FOUND' },
        })
        expect((await api.patch(`/customers/${id}`, { name: 'Mine' })).status).toBe(404)
      }
      expect((await otherApi.get(`/customers/${theirs.id}`)).body.data.customer.name).toBe('Theirs')
    })

    it('has no DELETE endpoint: 405 with the methods it has', async () => {
      const created = (await api.post('/customers', { name: 'Forever', latitude: 1, longitude: 1 })).body.data
        .customer
      const response = await api.delete(`/customers/${created.id}`)
      expect(response.status).toBe(405)
      expect(response.body.code).toBe('METHOD_NOT_ALLOWED')
      expect(response.headers.allow).toBe('GET, HEAD, PATCH, OPTIONS')
      expect((await api.get(`/customers/${created.id}`)).status).toBe(200)
    })

    describe('list and search', () => {
      let searchApi: ReturnType<typeof client>

      beforeAll(async () => {
        searchApi = client(t, (await createTenant(t)).headers)
        const rows = [
          ['Harbour Café', '1 Quay Street, Bristol'],
          ['ÉCOLE Saint-Jean', '5 Rue de la Paix, Paris'],
          ['Northern Fish Bar', '77 Harbour Road, Leith'],
          ['100% Organic', '9 Percent Lane'],
          ['Under_score Ltd', '4 Main Street'],
          ['Plain Shop', 'Unit 2, Trading Estate'],
        ]
        for (const [name, address] of rows) {
          expect(
            (await searchApi.post('/customers', { name, address, latitude: 50, longitude: 0 })).status,
          ).toBe(201)
        }
      })

      const names = async (query: string) => {
        const response = await searchApi.get(`/customers?${query}`)
        expect(response.status).toBe(200)
        return (response.body.data.customers as { name: string }[]).map((c) => c.name).sort()
      }

      it('matches name or address case-insensitively, in any script', async () => {
        expect(await names('search=harbour')).toEqual(['Harbour Café', 'Northern Fish Bar'])
        expect(await names('search=HARBOUR')).toEqual(['Harbour Café', 'Northern Fish Bar'])
        expect(await names(`search=${encodeURIComponent('CAFÉ')}`)).toEqual(['Harbour Café'])
        expect(await names(`search=${encodeURIComponent('école')}`)).toEqual(['ÉCOLE Saint-Jean'])
        expect(await names('search=street')).toEqual(['Harbour Café', 'Under_score Ltd'])
        expect(await names('search=nothing-like-this')).toEqual([])
      })

      it('treats LIKE wildcards in the search literally', async () => {
        expect(await names('search=%25')).toEqual(['100% Organic'])
        expect(await names('search=_')).toEqual(['Under_score Ltd'])
        expect(await names(`search=${encodeURIComponent("' OR 1=1 --")}`)).toEqual([])
      })

      it('reports totals for the search and pages with default size 50', async () => {
        const response = await searchApi.get('/customers?search=street')
        expect(response.body.data.pagination).toEqual({ page: 1, limit: 50, total: 2, totalPages: 1 })
        const paged = await searchApi.get('/customers?limit=4&page=2')
        expect(paged.body.data.pagination).toEqual({ page: 2, limit: 4, total: 6, totalPages: 2 })
        expect(paged.body.data.customers).toHaveLength(2)
      })

      it('lists newest first and each customer once across pages', async () => {
        const seen: { id: string; createdAt: string }[] = []
        for (let page = 1; page <= 3; page++) {
          seen.push(...(await searchApi.get(`/customers?limit=2&page=${page}`)).body.data.customers)
        }
        expect(new Set(seen.map((c) => c.id)).size).toBe(6)
        const sorted = [...seen].sort((a, b) =>
          a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
        )
        expect(sorted).toEqual(seen)
      })

      it('finds through the trigram index exactly what a scan finds, after renames too', async () => {
        const api = client(t, (await createTenant(t)).headers)
        const people = [
          ['Say "Cheese" Deli', 'Quote Row'],
          ['Zoë Ångström', '12 Œuvre Street'],
          ['İstanbul Kebab', '50% Off Alley'],
          ['Emoji 🍕 Pizza', 'Slice_Lane'],
          ['Ashworth & Sons', 'Ashworth Court'],
        ]
        const ids: string[] = []
        for (const [name, address] of people) {
          const created = await api.post('/customers', { name, address, latitude: 1, longitude: 1 })
          ids.push(created.body.data.customer.id)
        }
        await api.patch(`/customers/${ids[4]}`, { name: 'Renamed Holdings', address: 'Nowhere' })
        const current = [...people.slice(0, 4), ['Renamed Holdings', 'Nowhere']]
        const terms = [
          '"cheese"',
          'say "',
          'zoë',
          'ÅNGSTRÖM',
          'œuvre',
          'stanbul',
          '50% o',
          '🍕 p',
          'e_l',
          '_la',
        ]
        terms.push('ashworth', 'renamed', 'nowhere', 'hold', 'zo', '%', 'st', 'xyz')
        for (const term of terms) {
          const expected = current
            .filter(([n, a]) => [n, a].some((text) => text?.toLowerCase().includes(term.toLowerCase())))
            .map(([n]) => n)
            .sort()
          const response = await api.get(`/customers?search=${encodeURIComponent(term)}`)
          const found = (response.body.data.customers as { name: string }[]).map((c) => c.name).sort()
          expect({ term, found }).toEqual({ term, found: expected })
          expect(response.body.data.pagination.total).toBe(expected.length)
        }
      })

      it('counts the matches of a page past the last one', async () => {
        const response = await searchApi.get('/customers?search=street&page=3&limit=1')
        expect(response.body.data.customers).toEqual([])
        expect(response.body.data.pagination).toEqual({ page: 3, limit: 1, total: 2, totalPages: 2 })
      })

      it.each(['limit=101', 'page=0', `search=${'x'.repeat(201)}`, 'name=x', 'limit=ten'])(
        'rejects ?%s with 400',
        async (query) => {
          const response = await searchApi.get(`/customers?${query}`)
          expect(response.status).toBe(400)
          expect(response.body.code).toBe('VALIDATION_ERROR')
        },
      )
    })
  })
}
