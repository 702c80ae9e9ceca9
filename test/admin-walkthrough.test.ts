// The "done when", end to end against a listening server: from an empty database, the CLI's
// first admin key builds a whole organisation over HTTP and walks a job through its life, and the
// public API shows every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCli } from '../src/cli/program.js'
import { loadConfig } from '../src/config.js'
import { type RunningServer, startServer } from '../src/server.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: an organisation built from scratch over HTTP`, () => {
    let database: { url: string; cleanup(): Promise<void> }
    let server: RunningServer
    let adminKey: string

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      const config = { ...loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }), port: 0 }
      const cli = async (...args: string[]) => {
        let out = ''
        const output = {
          write: (text: string) => {
            out += text
          },
        }
        await buildCli(config, output).parseAsync(['node', 'fs', ...args, '--json'])
        return JSON.parse(out)
      }
      const org = await cli('orgs', 'create', '--name', 'Walkthrough Heating', '--plan', 'PRO')
      adminKey = (await cli('keys', 'create', '--org', org.id, '--scopes', 'admin', '--name', 'first admin'))
        .key
      server = await startServer(config)
    })
    afterAll(async () => {
      await server?.close()
      await database?.cleanup()
    })

    const call = async (key: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      // biome-ignore lint/suspicious/noExplicitAny: asserted field by field
      return { status: response.status, body: (await response.json()) as any }
    }
    const admin = async (method: string, path: string, body?: unknown, expected = 200) => {
      const response = await call(adminKey, method, `/v1/admin${path}`, body)
      expect(response.status, `${method} /v1/admin${path}: ${JSON.stringify(response.body)}`).toBe(expected)
      return response.body.data
    }

    it('builds depots, fleet, team and shifts, then walks a job from CREATED to COMPLETED', async () => {
      const depot = (
        await admin(
          'POST',
          '/locations',
          {
            name: 'Salford Depot',
            code: 'SAL',
            address: '1 Quay Road, Salford M50 3AA',
            latitude: 53.4722,
            longitude: -2.2936,
            timezone: 'Europe/London',
            isPrimary: true,
          },
          201,
        )
      ).location
      const gasSafe = (await admin('POST', '/tags', { name: 'gas-safe' }, 201)).tag
      const weight = (
        await admin('POST', '/capacity-dimensions', { key: 'weight_kg', label: 'Weight (kg)' }, 201)
      ).capacityDimension
      const van = (
        await admin(
          'POST',
          '/vehicles',
          {
            name: 'Van 1',
            locationId: depot.id,
            costPerKm: 0.45,
            tagIds: [gasSafe.id],
            capacities: [{ capacityDimensionId: weight.id, maxValue: 800 }],
          },
          201,
        )
      ).vehicle
      const worker = (
        await admin(
          'POST',
          '/team/users',
          { name: 'Priya Shah', email: 'priya@walkthrough.test', role: 'WORKER' },
          201,
        )
      ).user
      const shift = (
        await admin(
          'POST',
          '/shifts',
          {
            userId: worker.id,
            locationId: depot.id,
            vehicleId: van.id,
            day: 'MONDAY',
            startTime: '08:00',
            endTime: '16:30',
            breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
          },
          201,
        )
      ).shift

      // An integration key, issued through the admin API, drives the public API.
      const issued = await admin('POST', '/api-keys', { name: 'ERP sync', scopes: ['read', 'write'] }, 201)
      const erp = (method: string, path: string, body?: unknown) =>
        call(issued.key, method, `/v1/public${path}`, body)

      expect((await erp('GET', `/vehicles/${van.id}`)).body.data.vehicle).toMatchObject({
        name: 'Van 1',
        location: { id: depot.id, name: 'Salford Depot' },
        tags: [{ tag: { id: gasSafe.id, name: 'gas-safe' } }],
        capacities: [{ capacityDimension: { id: weight.id, key: 'weight_kg' }, maxValue: 800 }],
      })
      expect((await erp('GET', `/shifts/${shift.id}`)).body.data.shift).toMatchObject({
        user: { id: worker.id, name: 'Priya Shah', email: 'priya@walkthrough.test' },
        breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
      })
      expect((await erp('GET', '/locations')).body.data.locations).toHaveLength(1)

      const customer = (
        await erp('POST', '/customers', { name: 'Ancoats Bakery', latitude: 53.4839, longitude: -2.2251 })
      ).body.data.customer
      const created = await erp('POST', '/jobs', {
        title: 'Boiler service',
        customerId: customer.id,
        earliestStart: '2026-11-23T09:00:00Z',
        latestEnd: '2026-11-23T12:00:00Z',
      })
      expect(created.status).toBe(201)
      const jobId = created.body.data.job.id
      const publicJob = async () => (await erp('GET', `/jobs/${jobId}`)).body.data.job

      await admin('PUT', `/jobs/${jobId}/tags`, { tagIds: [gasSafe.id] })
      await admin('PUT', `/jobs/${jobId}/demands`, {
        demands: [{ capacityDimensionId: weight.id, requiredValue: 25 }],
      })
      expect(await publicJob()).toMatchObject({
        status: 'CREATED',
        tags: [{ tag: { id: gasSafe.id, name: 'gas-safe' } }],
        demands: [
          { capacityDimension: { id: weight.id, key: 'weight_kg', label: 'Weight (kg)' }, requiredValue: 25 },
        ],
      })

      await admin('POST', `/jobs/${jobId}/assign`, {
        userId: worker.id,
        shiftId: shift.id,
        scheduledStart: '2026-11-23T09:30:00Z',
        scheduledEnd: '2026-11-23T10:30:00Z',
      })
      expect(await publicJob()).toMatchObject({
        status: 'ASSIGNED',
        assignedUserId: worker.id,
        assignedUser: { id: worker.id, name: 'Priya Shah' },
        shiftId: shift.id,
        scheduledStart: '2026-11-23T09:30:00.000Z',
        scheduledEnd: '2026-11-23T10:30:00.000Z',
      })
      expect((await erp('GET', '/jobs?status=ASSIGNED')).body.data.pagination.total).toBe(1)

      await admin('POST', `/jobs/${jobId}/start`)
      const started = await publicJob()
      expect(started.status).toBe('IN_PROGRESS')
      expect(started.startedAt).toEqual(expect.any(String))
      expect((await erp('DELETE', `/jobs/${jobId}`)).body.code).toBe('JOB_IN_PROGRESS')

      await admin('POST', `/jobs/${jobId}/complete`)
      const completed = await publicJob()
      expect(completed.status).toBe('COMPLETED')
      expect(completed.completedAt).toEqual(expect.any(String))
      expect(completed.actualDuration).toBeGreaterThanOrEqual(0)
      const locked = await erp('PATCH', `/jobs/${jobId}`, { title: 'Too late' })
      expect(locked.status).toBe(422)
      expect(locked.body.code).toBe('TERMINAL_STATE')

      const refused = await call(adminKey, 'POST', `/v1/admin/jobs/${jobId}/start`)
      expect(refused.status).toBe(422)
      expect(refused.body.code).toBe('INVALID_TRANSITION')

      // Revoking the integration key through the admin API shuts it out.
      await admin('POST', `/api-keys/${issued.apiKey.id}/revoke`)
      expect((await erp('GET', '/jobs')).status).toBe(401)
    })
  })
}
