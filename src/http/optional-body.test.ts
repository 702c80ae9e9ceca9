import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeCapacityDimension,
  makeLocation,
  makeShift,
  makeTag,
  makeUser,
  makeVehicle,
} from '../../test/factories.js'
import { loadOperations } from '../../test/fuzz/operations.js'
import {
  adminClient,
  client,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../test/sessions.js'

const NO_BODY = {
  error: 'body must be absent or {} (this operation takes no body)',
  code: 'VALIDATION_ERROR',
  details: [{ path: '/body', message: 'must be absent or {} (this operation takes no body)' }],
}

/** Bodies a body-less operation refuses (as raw JSON text). */
const REFUSED = ['{"reason":"x"}', '{"force":true}', '[]', '[{}]', 'null', '"x"', '0', 'false', '{"":null}']

/** The write operations of both documents that declare no request body (raw bytes are one). */
const BODYLESS = loadOperations().filter((o) => o.method !== 'GET' && !o.body && !o.rawBody)
/** Those a key may call (signing out is for a session: checked on its own below). */
const BY_KEY = BODYLESS.filter((o) => o.key !== 'DELETE /v1/admin/session')

/** The operation's path with a well-formed date and unknown ids in it: a 404 once the body passes. */
const missing = (path: string) => path.replace('{date}', '2026-12-07').replace(/\{[A-Za-z]+\}/g, 'no-such-id')

for (const dialect of DIALECTS) {
  describe(`${dialect}: operations that take no body`, () => {
    let t: TestContext
    let tenant: TestTenant
    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['admin'] })
    })
    afterAll(() => t.close())

    const send = (method: string, url: string, payload?: string) =>
      t.app.inject({
        method: method as 'POST',
        url,
        headers: {
          ...tenant.headers,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload }),
      })

    it('are the sixteen the documents list without a body, each saying so', () => {
      expect(BODYLESS.map((o) => o.key).sort()).toEqual([
        'DELETE /v1/admin/automations/{id}',
        'DELETE /v1/admin/capacity-dimensions/{id}',
        'DELETE /v1/admin/form-templates/{id}',
        'DELETE /v1/admin/jobs/{id}',
        'DELETE /v1/admin/jobs/{id}/attachments/{attachmentId}',
        'DELETE /v1/admin/locations/{id}',
        'DELETE /v1/admin/session',
        'DELETE /v1/admin/shifts/{id}',
        'DELETE /v1/admin/shifts/{id}/dates/{date}',
        'DELETE /v1/admin/tags/{id}',
        'DELETE /v1/admin/team/users/{id}/absences/{absenceId}',
        'DELETE /v1/admin/vehicles/{id}',
        'DELETE /v1/public/jobs/{id}',
        'POST /v1/admin/api-keys/{id}/revoke',
        'POST /v1/admin/team/users/{id}/activate',
        'POST /v1/admin/team/users/{id}/deactivate',
      ])
    })

    it.each(REFUSED)('refuses %s on every one of them before anything else (even a 404)', async (payload) => {
      for (const operation of BY_KEY) {
        const response = await send(operation.method, missing(operation.path), payload)
        expect(response.statusCode, `${operation.key} ${payload}`).toBe(400)
        expect(response.json()).toEqual(NO_BODY)
      }
    })

    it.each([undefined, '', '  ', '{}', ' { } '])('lets %j through to the operation', async (payload) => {
      for (const operation of BY_KEY) {
        const response = await send(operation.method, missing(operation.path), payload)
        expect(response.statusCode, `${operation.key} ${payload}`).toBe(404)
      }
    })

    it('signing out takes none or {} too, and a refused body keeps the session', async () => {
      const signedIn = await signIn(t, await makeDashboardUser(t, tenant.organisationId))
      const headers = {
        cookie: `fs_session=${signedIn.cookie}`,
        'x-csrf-token': signedIn.csrfToken,
        'content-type': 'application/json',
      }
      for (const payload of REFUSED) {
        const response = await t.app.inject({ method: 'DELETE', url: '/v1/admin/session', headers, payload })
        expect(response.statusCode, payload).toBe(400)
        expect(response.json()).toEqual(NO_BODY)
      }
      expect((await sessionClient(t, signedIn).get('/session')).status).toBe(200)
      const out = await t.app.inject({ method: 'DELETE', url: '/v1/admin/session', headers, payload: '{}' })
      expect(out.statusCode).toBe(200)
    })

    it('asks for the key and its scope first', async () => {
      const readOnly = await createKey(t, tenant.organisationId, { scopes: ['read'] })
      const withoutKey = await t.app.inject({
        method: 'DELETE',
        url: '/v1/public/jobs/x',
        headers: { 'content-type': 'application/json' },
        payload: '{"reason":"x"}',
      })
      expect(withoutKey.statusCode).toBe(401)
      const withReadKey = await t.app.inject({
        method: 'DELETE',
        url: '/v1/public/jobs/x',
        headers: { ...readOnly.headers, 'content-type': 'application/json' },
        payload: '{"reason":"x"}',
      })
      expect(withReadKey.statusCode).toBe(403)
    })

    describe('do nothing when refused, and their work with none or {}', () => {
      const db = () => t.database.db
      const org = () => tenant.organisationId
      const admin = () => adminClient(t, tenant.headers)
      const pub = () => client(t, tenant.headers)
      const depot = async () => (await makeLocation(db(), org(), { name: 'Depot' })).id
      const van = async () => (await makeVehicle(db(), org(), await depot())).id

      const cases: [
        string,
        { method: 'POST' | 'DELETE'; url: (id: string) => string },
        () => Promise<string>,
        (id: string) => Promise<unknown>,
      ][] = [
        [
          'public DELETE /jobs/:id',
          { method: 'DELETE', url: (id) => `/v1/public/jobs/${id}` },
          async () => (await pub().post('/jobs', { title: 'Keep me' })).body.data.job.id,
          async (id) => (await pub().get(`/jobs/${id}`)).body,
        ],
        [
          'POST /team/users/:id/deactivate',
          { method: 'POST', url: (id) => `/v1/admin/team/users/${id}/deactivate` },
          async () => (await makeUser(db(), org())).id,
          async (id) => (await admin().get(`/team/users/${id}`)).body,
        ],
        [
          'POST /team/users/:id/activate',
          { method: 'POST', url: (id) => `/v1/admin/team/users/${id}/activate` },
          async () => {
            const { id } = await makeUser(db(), org())
            expect((await admin().post(`/team/users/${id}/deactivate`)).status).toBe(200)
            return id
          },
          async (id) => (await admin().get(`/team/users/${id}`)).body,
        ],
        [
          'POST /api-keys/:id/revoke',
          { method: 'POST', url: (id) => `/v1/admin/api-keys/${id}/revoke` },
          async () => (await createKey(t, org())).id,
          async (id) => (await admin().get(`/api-keys/${id}`)).body,
        ],
        [
          'DELETE /tags/:id',
          { method: 'DELETE', url: (id) => `/v1/admin/tags/${id}` },
          async () => (await makeTag(db(), org(), `tag-${Math.random()}`)).id,
          async (id) => (await admin().get(`/tags/${id}`)).body,
        ],
        [
          'DELETE /capacity-dimensions/:id',
          { method: 'DELETE', url: (id) => `/v1/admin/capacity-dimensions/${id}` },
          async () => (await makeCapacityDimension(db(), org(), `k${Math.random()}`.replace('.', '_'))).id,
          async (id) => (await admin().get(`/capacity-dimensions/${id}`)).body,
        ],
        [
          'DELETE /locations/:id',
          { method: 'DELETE', url: (id) => `/v1/admin/locations/${id}` },
          depot,
          async (id) => (await pub().get(`/locations/${id}`)).body,
        ],
        [
          'DELETE /vehicles/:id',
          { method: 'DELETE', url: (id) => `/v1/admin/vehicles/${id}` },
          van,
          async (id) => (await pub().get(`/vehicles/${id}`)).body,
        ],
        [
          'DELETE /shifts/:id',
          { method: 'DELETE', url: (id) => `/v1/admin/shifts/${id}` },
          async () => {
            const locationId = await depot()
            const vehicle = await makeVehicle(db(), org(), locationId)
            const user = await makeUser(db(), org())
            return (await makeShift(db(), org(), { userId: user.id, locationId, vehicleId: vehicle.id })).id
          },
          async (id) => (await pub().get(`/shifts/${id}`)).body,
        ],
        [
          'DELETE /automations/:id',
          { method: 'DELETE', url: (id) => `/v1/admin/automations/${id}` },
          async () =>
            (await admin().post('/automations', { event: 'JOB_CREATED', url: 'http://127.0.0.1:9/hook' }))
              .body.data.automation.id,
          async (id) => (await admin().get(`/automations/${id}`)).body,
        ],
      ]

      it.each(cases)('%s', async (_name, route, make, read) => {
        const first = await make()
        const before = await read(first)
        expect(before).toMatchObject({ data: expect.any(Object) })
        const refused = await send(route.method, route.url(first), '{"reason":"no longer needed"}')
        expect(refused.statusCode).toBe(400)
        expect(refused.json()).toEqual(NO_BODY)
        expect(await read(first)).toEqual(before)
        expect((await send(route.method, route.url(first), '{}')).statusCode).toBe(200)
        expect(await read(first)).not.toEqual(before)
        const second = await make()
        expect((await send(route.method, route.url(second))).statusCode).toBe(200)
      })
    })

    it('documents the rule on each of them', async () => {
      for (const api of ['public', 'admin']) {
        const document = (await t.app.inject({ method: 'GET', url: `/v1/${api}/openapi.json` })).json()
        for (const operation of BODYLESS.filter((o) => o.api === api)) {
          const path = operation.path.replace(`/v1/${api}`, '')
          const described = document.paths[path][operation.method.toLowerCase()].description
          expect(described, operation.key).toContain('Takes no request body')
        }
      }
    })
  })
}
