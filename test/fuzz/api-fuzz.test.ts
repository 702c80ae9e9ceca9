// Property-based fuzzing of every public and admin route, from the committed OpenAPI documents:
// valid, boundary and malformed requests (see requests.ts), on both databases. For every request:
// no 5xx, errors are `{ error, code }` without internals, every status is documented for its
// operation (a missing one fails the run), successes match the documented response,
// other organisations stay invisible, and a rejected write changes nothing in the database.
//
// Reproducible: FUZZ_SEED (default below) seeds every operation; FUZZ_REQUESTS sets the total per
// dialect (default 10,200); FUZZ_NO_SHRINK=1 reports the first failure without shrinking it.
import fc from 'fast-check'
import type { Response as InjectResponse } from 'light-my-request'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, DIALECTS, type TestContext } from '../helpers.js'
import { type CheckContext, checkResponse } from './checks.js'
import { diffFingerprints, type Fingerprint, fingerprint } from './fingerprint.js'
import { loadOperations, type Operation } from './operations.js'
import { describeRequest, type FuzzRequest, requestArbitrary, resolveRequest } from './requests.js'
import type { Resource } from './values.js'
import { createWorld, refreshSessions, remember, resetSeededJobs, type World } from './world.js'

const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20_260_601)
const TOTAL_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_200)
/**
 * Operations that delete, cancel or end what they touch run last, so the seeded rows (jobs in every
 * state, the automation with executions) are still there for every other route.
 */
const isDestructive = (op: Operation) =>
  op.method === 'DELETE' || /\/(cancel|complete|revoke|deactivate)$/.test(op.path)
const OPERATIONS = [
  ...loadOperations().filter((op) => !isDestructive(op)),
  ...loadOperations().filter(isDestructive),
]
const RUNS_PER_OPERATION = Math.ceil(TOTAL_REQUESTS / OPERATIONS.length)

/** A per-operation seed: stable when operations are added or filtered with `-t`. */
function seedFor(key: string): number {
  let hash = BASE_SEED | 0
  for (const char of key) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0
  return hash
}

/** `data.<name>` of a created resource → its pool. */
const CREATED: Record<string, Resource> = {
  job: 'jobs',
  customer: 'customers',
  user: 'users',
  tag: 'tags',
  capacityDimension: 'capacityDimensions',
  location: 'locations',
  vehicle: 'vehicles',
  shift: 'shifts',
  apiKey: 'apiKeys',
  automation: 'automations',
  execution: 'executions',
  routePlan: 'routePlans',
  absence: 'absences',
  series: 'jobSeries',
  import: 'imports',
}

interface FuzzState extends CheckContext {
  world: World
  last: Fingerprint
  sent: number
  statuses: Map<number, number>
  /** Operations with at least one 2xx: the others only ever exercised their error paths. */
  accepted: Set<string>
}

/** After an accepted write: new ids join the pools; a plan without API access is undone. */
async function afterAcceptedWrite(state: FuzzState, request: FuzzRequest, response: InjectResponse) {
  const data = (response.json() as { data?: Record<string, { id?: unknown }> }).data ?? {}
  if (response.statusCode === 201 || response.statusCode === 202) {
    for (const [name, value] of Object.entries(data)) {
      const resource = CREATED[name]
      if (resource && typeof value?.id === 'string') remember(state.world, resource, value.id)
    }
  }
  if (request.op.key === 'PATCH /v1/admin/organisation') {
    await state.world.t.database.db
      .updateTable('organisations')
      .set({ plan: 'PRO' })
      .where('id', '=', state.world.organisationId)
      .execute()
  }
}

async function sendAndCheck(state: FuzzState, request: FuzzRequest): Promise<void> {
  const { t } = state.world
  const resolved = resolveRequest(state.world, request)
  const method = resolved.inject.method as string
  const isWrite = method !== 'GET' && method !== 'HEAD'
  const response = await t.app.inject(resolved.inject)
  state.sent++
  state.statuses.set(response.statusCode, (state.statuses.get(response.statusCode) ?? 0) + 1)
  if (response.statusCode < 300 && method === request.op.method) state.accepted.add(request.op.key)
  const problems = checkResponse(state, request, resolved, response)
  if (isWrite) {
    if (response.statusCode >= 400) {
      const after = await fingerprint(t)
      const changed = diffFingerprints(state.last, after)
      if (changed.length > 0) problems.push(`a rejected request changed the database: ${changed.join('; ')}`)
      state.last = after
    } else {
      // Another method on the path (OPTIONS answers 204, no body) wrote nothing to remember.
      if (response.statusCode < 300 && method === request.op.method)
        await afterAcceptedWrite(state, request, response)
      state.last = await fingerprint(t)
    }
  }
  if (problems.length > 0) {
    const shown = response.body.length > 1500 ? `${response.body.slice(0, 1500)}…` : response.body
    throw new Error(
      `${problems.join('\n')}\n--- request\n${describeRequest(resolved)}\n--- response ${response.statusCode}\n${shown}`,
    )
  }
}

async function fuzzOperation(state: FuzzState, op: Operation): Promise<void> {
  await resetSeededJobs(state.world)
  await refreshSessions(state.world)
  state.last = await fingerprint(state.world.t)
  const seed = seedFor(op.key)
  const details = await fc.check(
    fc.asyncProperty(requestArbitrary(op), (request) => sendAndCheck(state, request)),
    { seed, numRuns: RUNS_PER_OPERATION, endOnFailure: process.env.FUZZ_NO_SHRINK === '1' },
  )
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
    throw new Error(
      `${op.key} failed after ${details.numRuns} runs (FUZZ_SEED=${BASE_SEED}, operation seed ${details.seed}, ` +
        `path "${details.counterexamplePath}", ${details.numShrinks} shrinks)\n${cause}`,
    )
  }
  // Every write refreshed the fingerprint: a difference now was made by a GET.
  const now = await fingerprint(state.world.t)
  expect(diffFingerprints(state.last, now), `a GET of ${op.key} changed the database`).toEqual([])
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: fuzzing every route (FUZZ_SEED=${BASE_SEED})`, () => {
    let t: TestContext
    let state: FuzzState

    beforeAll(async () => {
      // Redeliveries go to loopback ports nothing listens on: a short timeout keeps them cheap. The
      // fuzzer's sessions share one user budget each: make it as generous as the admin key's.
      // No cap on waiting route plans: nothing solves the world's plans, so a cap would answer every
      // later valid POST /route-plans with 429 TOO_MANY_PLANS (route-plans/queue.test.ts covers it).
      t = await createTestApp(dialect, {
        webhookTimeoutMs: 300,
        sessionRateLimitPerMinute: 100_000_000,
        routePlanQueueMax: 0,
      })
      const world = await createWorld(t)
      state = {
        world,
        foreignIds: world.foreignIds,
        last: await fingerprint(t),
        sent: 0,
        statuses: new Map(),
        accepted: new Set(),
      }
    })
    afterAll(async () => {
      if (state) {
        const statuses = [...state.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`)
        console.info(`${dialect}: ${state.sent} fuzzed requests (${statuses.join(', ')})`)
        const neverAccepted = OPERATIONS.filter((op) => !state.accepted.has(op.key)).map((op) => op.key)
        if (neverAccepted.length > 0)
          console.info(`${dialect}: never answered 2xx:\n  ${neverAccepted.join('\n  ')}`)
      }
      await t?.close()
    })

    for (const op of OPERATIONS) {
      it(op.key, () => fuzzOperation(state, op), 120_000)
    }

    it(`sent at least ${TOTAL_REQUESTS.toLocaleString('en')} requests`, () => {
      expect(state.sent).toBeGreaterThanOrEqual(TOTAL_REQUESTS)
    })

    // Found by this fuzzer, fixed in src/app.ts (frameworkErrors, genReqId).
    describe('URLs and headers Fastify handles before our routes', () => {
      const get = (url: string, headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'GET', url, headers: { authorization: state.world.keys.admin, ...headers } })

      it('answers a path with broken percent-encoding with one of our codes', async () => {
        const response = await get('/v1/public/jobs/%E0%A4%A')
        expect(response.statusCode).toBe(400)
        expect(response.json()).toEqual({ error: expect.any(String), code: 'VALIDATION_ERROR' })
        expect(response.headers['x-request-id']).toEqual(expect.any(String))
      })

      it('answers a path parameter over 200 characters with one of our codes', async () => {
        const response = await get(`/v1/public/jobs/${'x'.repeat(201)}`)
        expect(response.statusCode).toBe(404)
        expect(response.json()).toEqual({ error: expect.any(String), code: 'NOT_FOUND' })
      })

      // Only through inject(): Node's HTTP parser delivers header bytes as latin1, so no real
      // client can send a character above U+00FF.
      it('replaces an x-request-id that is not a short printable token', async () => {
        for (const id of ['café ☕', 'x'.repeat(129), 'two words', '']) {
          const response = await get('/v1/public/jobs', { 'x-request-id': id })
          expect(response.statusCode).toBe(200)
          expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
        }
        const kept = await get('/v1/public/jobs', { 'x-request-id': 'erp-sync:42/7' })
        expect(kept.headers['x-request-id']).toBe('erp-sync:42/7')
      })
    })
  })
}
