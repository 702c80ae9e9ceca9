// The admin API as a test's back door: an admin-scoped key of an organisation, and calls that
// return the envelope's `data` (or fail the test with the server's answer), for setting up records
// the page then shows and for checking what the page saved.
import { expect } from 'vitest'
import { createApiKey } from '../../src/modules/api-keys/service.js'
import { callApi, type DashboardServer } from './harness.js'

export interface AdminApi {
  <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>
  /** The raw answer, for calls that are meant to fail. */
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>
}

export async function adminApi(server: DashboardServer, organisationId: string): Promise<AdminApi> {
  const { key } = await createApiKey(server.database.db, {
    organisationId,
    name: 'test admin',
    scopes: ['admin'],
    rateLimitPerMinute: 10_000,
    expiresAt: null,
  })
  const raw = (method: string, path: string, body?: unknown) =>
    callApi(server, key, method, `/v1/admin${path}`, body)
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await raw(method, path, body)
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300)
    return (answer.body as { data: T }).data
  }
  return Object.assign(call, { raw }) as AdminApi
}
