// What a dashboard session may do: roles (ADMIN, DISPATCHER), plans (Pro settings on FREE/STARTER),
// tenant isolation, and the public API never taking a session. Through app.inject() on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeShiftReferences, makeTag } from '../../../test/factories.js'
import { createTenant, createTestApp, DIALECTS, type TestContext } from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'

type Api = ReturnType<typeof sessionClient>
type Call = [method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, body?: unknown]

async function call(api: Api, [method, url, body]: Call) {
  switch (method) {
    case 'get':
      return api.get(url)
    case 'delete':
      return api.delete(url)
    case 'post':
      return api.post(url, body)
    case 'put':
      return api.put(url, body)
    default:
      return api.patch(url, body)
  }
}

/** A row of every kind the calls below need, in one organisation. */
async function seed(t: TestContext, plan: 'PRO' | 'FREE' | 'STARTER' = 'PRO') {
  const tenant = await createTenant(t, { plan, scopes: ['admin'] })
  const org = tenant.organisationId
  const refs = await makeShiftReferences(t.database.db, org)
  const tag = await makeTag(t.database.db, org, 'urgent')
  const admin = sessionClient(t, await signIn(t, await makeDashboardUser(t, org)))
  const dispatcher = sessionClient(
    t,
    await signIn(t, await makeDashboardUser(t, org, { role: 'DISPATCHER' })),
  )
  return { tenant, org, refs, tag, admin, dispatcher }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: roles of dashboard sessions`, () => {
    let t: TestContext
    let world: Awaited<ReturnType<typeof seed>>

    beforeAll(async () => {
      t = await createTestApp(dialect)
      world = await seed(t)
    })
    afterAll(() => t.close())

    it('lets a DISPATCHER work jobs, customers, fleet, shifts, reference data, forms and plans', async () => {
      const { dispatcher, refs, tag } = world
      const customer = await dispatcher.post('/customers', {
        name: 'Bakery',
        latitude: 53.48,
        longitude: -2.24,
      })
      expect(customer.status).toBe(201)
      const job = await dispatcher.post('/jobs', {
        title: 'Fix the oven',
        customerId: customer.body.data.customer.id,
        earliestStart: '2026-11-23T08:00:00Z',
        latestEnd: '2026-11-23T18:00:00Z',
      })
      expect(job.status).toBe(201)
      const jobId = job.body.data.job.id
      const allowed: Call[] = [
        ['get', '/organisation'],
        ['get', '/team/users'],
        ['get', `/team/users/${refs.user.id}`],
        ['get', '/jobs'],
        ['get', `/jobs/${jobId}`],
        ['patch', `/jobs/${jobId}`, { priority: 'HIGH' }],
        ['put', `/jobs/${jobId}/tags`, { tagIds: [tag.id] }],
        [
          'post',
          `/jobs/${jobId}/assign`,
          {
            userId: refs.user.id,
            scheduledStart: '2026-11-23T10:00:00Z',
            scheduledEnd: '2026-11-23T11:00:00Z',
          },
        ],
        ['post', `/jobs/${jobId}/form-submissions`, { form: 'check', answers: { ok: true } }],
        ['get', '/customers'],
        ['patch', `/customers/${customer.body.data.customer.id}`, { address: '1 High St' }],
        ['get', '/locations'],
        ['get', '/vehicles'],
        ['patch', `/vehicles/${refs.vehicle.id}`, { name: 'Van One' }],
        ['get', '/shifts'],
        ['get', '/tags'],
        ['post', '/tags', { name: 'fragile' }],
        ['get', '/capacity-dimensions'],
        ['get', '/route-plans'],
        ['post', '/route-plans', { date: '2026-11-23', mode: 'REPLAN_ALL' }],
      ]
      for (const request of allowed) {
        const response = await call(dispatcher, request)
        expect(response.status, `${request[0]} ${request[1]}: ${JSON.stringify(response.body)}`).toBeLessThan(
          300,
        )
      }
    })

    it('refuses a DISPATCHER the settings and the team changes with 403, changing nothing', async () => {
      const { dispatcher, admin, refs } = world
      const before = JSON.stringify([
        (await admin.get('/organisation')).body,
        (await admin.get('/team/users?limit=100')).body,
        (await admin.get('/api-keys')).body,
        (await admin.get('/automations')).body,
      ])
      const automation = await admin.post('/automations', {
        name: 'Hook',
        event: 'JOB_CREATED',
        url: 'http://127.0.0.1:9/hook',
      })
      expect(automation.status).toBe(201)
      const automationId = automation.body.data.automation.id
      const refused: Call[] = [
        ['get', '/api-keys'],
        ['post', '/api-keys', { name: 'mine', scopes: ['admin'] }],
        ['get', '/automations'],
        ['get', `/automations/${automationId}`],
        ['post', '/automations', { name: 'x', event: 'JOB_CREATED', url: 'http://127.0.0.1:9/x' }],
        ['post', `/automations/${automationId}/deactivate`],
        ['get', '/executions'],
        ['get', `/automations/${automationId}/executions`],
        ['patch', '/organisation', { name: 'Taken over' }],
        ['post', '/team/users', { name: 'New', email: 'new@example.com', role: 'ADMIN' }],
        ['patch', `/team/users/${refs.user.id}`, { role: 'ADMIN' }],
        ['post', `/team/users/${refs.user.id}/deactivate`],
        ['post', `/team/users/${refs.user.id}/activate`],
        ['put', `/team/users/${refs.user.id}/password`, { password: 'a password of mine' }],
      ]
      for (const request of refused) {
        const response = await call(dispatcher, request)
        expect([response.status, response.body.code], `${request[0]} ${request[1]}`).toEqual([
          403,
          'FORBIDDEN',
        ])
        expect(response.body.error).toMatch(/Only an ADMIN/)
      }
      await admin.delete(`/automations/${automationId}`)
      const after = JSON.stringify([
        (await admin.get('/organisation')).body,
        (await admin.get('/team/users?limit=100')).body,
        (await admin.get('/api-keys')).body,
        (await admin.get('/automations')).body,
      ])
      expect(after).toBe(before)
    })

    it('lets an ADMIN do everything, keys included, with the scopes of an admin key', async () => {
      const { admin, refs } = world
      const key = await admin.post('/api-keys', { name: 'ERP', scopes: ['admin'] })
      expect(key.status).toBe(201)
      const publicJobs = await t.app.inject({
        method: 'GET',
        url: '/v1/public/jobs',
        headers: { authorization: `Bearer ${key.body.data.key}` },
      })
      expect(publicJobs.statusCode).toBe(200)
      expect((await admin.patch('/organisation', { name: 'Renamed Ltd' })).status).toBe(200)
      expect(
        (await admin.put(`/team/users/${refs.user.id}/password`, { password: 'twelve chars!' })).status,
      ).toBe(200)
      expect((await admin.get('/executions')).status).toBe(200)
    })

    it("answers another organisation's ids with 404 and never touches them", async () => {
      const other = await seed(t)
      const { admin, dispatcher } = world
      for (const api of [admin, dispatcher]) {
        expect((await api.get(`/tags/${other.tag.id}`)).status).toBe(404)
        expect((await api.patch(`/tags/${other.tag.id}`, { name: 'mine now' })).status).toBe(404)
        expect((await api.get(`/team/users/${other.refs.user.id}`)).status).toBe(404)
        expect((await api.get(`/vehicles/${other.refs.vehicle.id}`)).status).toBe(404)
      }
      expect((await admin.post(`/team/users/${other.refs.user.id}/deactivate`)).status).toBe(404)
      const theirs = await other.admin.get(`/tags/${other.tag.id}`)
      expect(theirs.body.data.tag.name).toBe('urgent')
      const listed = (await admin.get('/tags')).body.data.tags.map((tag: { id: string }) => tag.id)
      expect(listed).not.toContain(other.tag.id)
    })

    it('is never accepted by the public API, and GET /session wants a session, not a key', async () => {
      const { tenant } = world
      const user = await makeDashboardUser(t, tenant.organisationId)
      const signedIn = await signIn(t, user)
      const cookie = `fs_session=${signedIn.cookie}`
      for (const [method, url] of [
        ['GET', '/v1/public/jobs'],
        ['POST', '/v1/public/jobs'],
      ] as const) {
        const response = await t.app.inject({
          method,
          url,
          headers: { cookie, 'x-csrf-token': signedIn.csrfToken },
          ...(method === 'POST' ? { payload: { title: 'x' } } : {}),
        })
        expect(response.statusCode).toBe(401)
        expect(response.json().error).toMatch(/Authorization header/)
      }
      const byKey = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/session',
        headers: { authorization: `Bearer ${tenant.key}` },
      })
      expect(byKey.statusCode).toBe(401)
      expect(byKey.json().error).toMatch(/dashboard sessions/)
      const nobody = await t.app.inject({ method: 'GET', url: '/v1/admin/tags' })
      expect(nobody.statusCode).toBe(401)
      expect(nobody.json().error).toMatch(/sign in with POST \/v1\/admin\/session/)
    })
  })

  describe(`${dialect}: sessions on the FREE and STARTER plans`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    for (const plan of ['FREE', 'STARTER'] as const) {
      it(`${plan}: everything but API keys, automations and executions, which need Pro`, async () => {
        const { admin, dispatcher, tenant } = await seed(t, plan)
        for (const url of [
          '/organisation',
          '/team/users',
          '/tags',
          '/locations',
          '/vehicles',
          '/shifts',
          '/jobs',
        ])
          expect((await admin.get(url)).status, url).toBe(200)
        expect(
          (await admin.post('/customers', { name: 'Shop', latitude: 51.5, longitude: -0.12 })).status,
        ).toBe(201)
        for (const [method, url] of [
          ['get', '/api-keys'],
          ['post', '/api-keys'],
          ['get', '/automations'],
          ['get', '/executions'],
        ] as const) {
          const response =
            method === 'get' ? await admin.get(url) : await admin.post(url, { name: 'k', scopes: ['read'] })
          expect([response.status, response.body.code], url).toEqual([403, 'PLAN_UPGRADE_REQUIRED'])
          expect(response.body.error).toMatch(/Pro and Enterprise plans; this organisation is on/)
        }
        // A DISPATCHER is refused the settings for the role, whatever the plan.
        expect((await dispatcher.get('/api-keys')).body.code).toBe('FORBIDDEN')
        // The organisation's keys still have no API access on this plan.
        const byKey = await t.app.inject({ method: 'GET', url: '/v1/admin/tags', headers: tenant.headers })
        expect(byKey.json().code).toBe('PLAN_UPGRADE_REQUIRED')
      })
    }
  })
}
