// Running a route plan through the admin API in tests: queue it, read it until a runner has finished
// it. One copy for every test file that plans (the queue and the runner are what they test elsewhere).
import { expect } from 'vitest'
import type { adminClient } from './helpers.js'

type Admin = ReturnType<typeof adminClient>

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The plan once it is no longer QUEUED or RUNNING (read every 100 ms, for at most 30 s). */
// biome-ignore lint/suspicious/noExplicitAny: the plan as the API answers it; each test reads what it checks
export async function untilFinished(admin: Admin, id: string): Promise<any> {
  for (let i = 0; i < 300; i++) {
    const read = await admin.get(`/route-plans/${id}`)
    expect(read.status).toBe(200)
    const routePlan = read.body.data.routePlan
    if (!['QUEUED', 'RUNNING'].includes(routePlan.status)) return routePlan
    await pause(100)
  }
  throw new Error(`plan ${id} did not finish`)
}

/** Queues a plan (202) and answers it once it is DONE. */
// biome-ignore lint/suspicious/noExplicitAny: as untilFinished
export async function runPlan(admin: Admin, body: Record<string, unknown>): Promise<any> {
  const queued = await admin.post('/route-plans', body)
  expect(queued.status, JSON.stringify(queued.body)).toBe(202)
  const routePlan = await untilFinished(admin, queued.body.data.routePlan.id)
  expect(routePlan.status).toBe('DONE')
  return routePlan
}
