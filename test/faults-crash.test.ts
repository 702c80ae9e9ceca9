// SIGKILL in the middle of concurrent writes loses nothing that was acknowledged: every job whose
// POST got a 2xx exists after a restart, and every job shows the title of its last acknowledged
// PATCH (or of the one write still in flight when the process died, whose outcome is unknown).
// Writes that got no response are unknown and may or may not have happened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../src/db/database.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'
import { kill, type ServiceProcess, startService } from './processes.js'

const WRITERS = 24
const ACKNOWLEDGED_BEFORE_KILL = 300
const KILLS = 2

/** What we know of one job: the title it certainly has, and a later write whose outcome is unknown. */
interface JobState {
  confirmed: string
  unknown?: string
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: kill -9 under concurrent POST and PATCH load`, () => {
    let database: { url: string; cleanup(): Promise<void> }
    let headers: Record<string, string>
    const services: ServiceProcess[] = []

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      const handle = createDatabase(database.url)
      const org = await createOrganisation(handle.db, { name: 'Crash Electrics', plan: 'PRO' })
      const { key } = await createApiKey(handle.db, {
        organisationId: org.id,
        name: 'crash test',
        scopes: ['read', 'write'],
        rateLimitPerMinute: 1_000_000,
      })
      await handle.destroy()
      headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    })
    afterAll(async () => {
      for (const service of services) await kill(service.child)
      await database?.cleanup()
    })

    const start = async () => {
      const service = await startService(database.url, { WEBHOOK_DISPATCHER: 'false' })
      services.push(service)
      return service
    }

    /** Every job we know of is there, with its confirmed title or the unknown one; returns how many. */
    const verify = async (service: ServiceProcess, jobs: Map<string, JobState>) => {
      const ids = [...jobs.keys()]
      for (let i = 0; i < ids.length; i += 16) {
        await Promise.all(
          ids.slice(i, i + 16).map(async (id) => {
            const response = await fetch(`${service.url}/v1/public/jobs/${id}`, { headers })
            expect(response.status, `acknowledged job ${id}`).toBe(200)
            const { title } = ((await response.json()) as { data: { job: { title: string } } }).data.job
            const state = jobs.get(id) as JobState
            expect([state.confirmed, state.unknown], `title of job ${id}`).toContain(title)
            // From here on the stored title is what we know for certain.
            jobs.set(id, { confirmed: title })
          }),
        )
      }
      return ids.length
    }

    it(`keeps every acknowledged write through ${KILLS} kills`, async () => {
      const jobs = new Map<string, JobState>()
      const owned: string[][] = Array.from({ length: WRITERS }, () => [])
      let service = await start()
      for (let round = 0; round < KILLS; round++) {
        let acknowledged = 0
        let inFlight = 0
        let killed = false
        const unexpected: string[] = []
        const base = service.url

        // One writer: sequential requests, so the writes to each of its jobs are ordered; it stops at
        // the first request without a response (the process is gone).
        const writer = async (w: number) => {
          const mine = owned[w] as string[]
          for (let n = 0; !killed; n++) {
            const title = `r${round}-w${w}-${n}`
            const target = mine.length >= 3 && n % 3 !== 0 ? mine[(n * 7) % mine.length] : undefined
            if (target) (jobs.get(target) as JobState).unknown = title
            inFlight++
            let response: Response
            try {
              response = await fetch(target ? `${base}/v1/public/jobs/${target}` : `${base}/v1/public/jobs`, {
                method: target ? 'PATCH' : 'POST',
                headers,
                body: JSON.stringify({ title }),
              })
            } catch {
              return // no response: unknown outcome (jobs keeps `unknown` for a PATCH)
            } finally {
              inFlight--
            }
            const body = (await response.json().catch(() => undefined)) as
              | { data?: { job?: { id: string } } }
              | undefined
            if (target) {
              const state = jobs.get(target) as JobState
              if (response.status === 200) jobs.set(target, { confirmed: title })
              else {
                unexpected.push(`PATCH ${response.status}`)
                jobs.set(target, { confirmed: state.confirmed })
              }
            } else if (response.status === 201 && body?.data?.job) {
              mine.push(body.data.job.id)
              jobs.set(body.data.job.id, { confirmed: title })
            } else if (response.status !== 201) {
              unexpected.push(`POST ${response.status}`) // (a 201 whose body was cut off is unknown)
            }
            if (response.ok) acknowledged++
          }
        }

        const writers = Array.from({ length: WRITERS }, (_, w) => writer(w))
        const deadline = Date.now() + 20_000
        while (acknowledged < ACKNOWLEDGED_BEFORE_KILL && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
        expect(acknowledged).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL)
        const inFlightAtKill = inFlight
        await kill(service.child, 'SIGKILL')
        killed = true
        await Promise.all(writers)
        expect(inFlightAtKill, 'writes in flight when the process died').toBeGreaterThan(0)
        // A request that was answered was answered with success: nothing else is expected here.
        expect(unexpected).toEqual([])

        service = await start()
        expect(await verify(service, jobs)).toBeGreaterThan(ACKNOWLEDGED_BEFORE_KILL / 6)
      }
      // The restarted service takes writes again.
      const after = await fetch(`${service.url}/v1/public/jobs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'After the crashes' }),
      })
      expect(after.status).toBe(201)
      await kill(service.child)
    }, 60_000)
  })
}
