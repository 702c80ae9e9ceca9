// Every statement the read endpoints run is checked with EXPLAIN: it must reach jobs, customers,
// vehicles, shifts and their child tables through an index — never a full scan — and job lists must
// come out of an index in list order, with no sort step. (Row counts here are tiny; on PostgreSQL
// sequential scans are switched off for the check, so the plan shows what the indexes allow.)
import type { KyselyPlugin, RootOperationNode } from 'kysely'
import { CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { makeShift, makeShiftReferences, makeTag } from './factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestDatabase,
  DIALECTS,
  type TestContext,
} from './helpers.js'

/** Records every query the app sends, to EXPLAIN it afterwards. */
const hotQueries: CompiledQuery[] = []

class Recorder implements KyselyPlugin {
  nodes: RootOperationNode[] = []
  transformQuery({ node }: { node: RootOperationNode }) {
    this.nodes.push(node)
    return node
  }
  async transformResult<R>({ result }: { result: R }) {
    return result
  }
}

const TABLES = [
  'jobs',
  'customers',
  'vehicles',
  'shifts',
  'shift_breaks',
  'job_tags',
  'job_demands',
  'job_counts',
]

for (const dialect of DIALECTS) {
  describe(`${dialect}: query plans`, () => {
    let t: TestContext
    const recorder = new Recorder()

    beforeAll(async () => {
      const database = await createTestDatabase(dialect)
      const db = database.db.withPlugin(recorder)
      // Fast-path statements (db/fast-path/) run their SQL as is, past the plugin: on this
      // unregistered instance they come through executeQuery, with their real parameters.
      const executeQuery = db.executeQuery.bind(db)
      db.executeQuery = ((query: CompiledQuery) => {
        hotQueries.push(query)
        return executeQuery(query)
      }) as typeof db.executeQuery
      const app = await buildApp({
        db,
        dialect,
        config: {
          authCacheTtlMs: 60_000,
          defaultRateLimitPerMinute: 100,
          bodyLimitBytes: 1 << 20,
          webhookDispatcher: false,
        },
      })
      await app.ready()
      t = {
        app,
        database,
        dialect,
        close: async () => {
          await app.close()
          await database.cleanup()
        },
      }
    })
    afterAll(() => t.close())

    it('reads through indexes, and lists jobs without sorting', async () => {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const api = client(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const { refs } = await makeShiftReferences(db, org)
      const shift = await makeShift(db, org, refs, {
        breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
      })
      const tag = await makeTag(db, org, 'Gas')
      const customer = (
        await api.post('/customers', { name: 'Ada Boiler', latitude: 53.48, longitude: -2.24 })
      ).body.data.customer
      let jobId = ''
      for (let i = 0; i < 5; i++) {
        const job = await api.post('/jobs', {
          title: `Job ${i}`,
          customerId: customer.id,
          locationId: refs.locationId,
          earliestStart: '2026-11-23T09:00:00Z',
          latestEnd: '2026-11-23T11:00:00Z',
        })
        jobId = job.body.data.job.id
      }
      await adminClient(t, tenant.headers).put(`/jobs/${jobId}/tags`, { tagIds: [tag.id] })
      const cursor = (await api.get('/jobs?limit=2')).body.data.pagination.nextCursor

      recorder.nodes = []
      hotQueries.length = 0
      const reads = [
        '/jobs',
        '/jobs?status=CREATED',
        '/jobs?priority=NORMAL',
        `/jobs?customerId=${customer.id}`,
        `/jobs?locationId=${refs.locationId}`,
        `/jobs?limit=2&cursor=${cursor}`,
        `/jobs?status=CREATED&cursor=${cursor}`,
        '/jobs?targetDate=2026-11-23',
        '/jobs?targetDate=2026-11-23&status=CREATED',
        `/jobs?targetDate=2026-11-23&cursor=${cursor}`,
        '/jobs?targetDate=2026-11-23&priority=HIGH',
        `/jobs/${jobId}`,
        '/customers',
        '/customers?search=boiler',
        '/customers?search=bo',
        `/customers/${customer.id}`,
        '/vehicles',
        `/vehicles/${refs.vehicleId}`,
        `/vehicles?locationId=${refs.locationId}`,
        '/shifts',
        `/shifts/${shift.id}`,
        `/shifts?userId=${refs.userId}`,
        '/locations',
      ]
      for (const path of reads) expect((await api.get(path)).status, path).toBe(200)
      const statements = [
        ...recorder.nodes.map((node) => db.getExecutor().compileQuery(node, { queryId: '' } as never)),
        ...hotQueries,
      ]
      // The fast path compiles each shape once with placeholders; what matters is what then runs.
      const placeholder = (value: unknown) => typeof value === 'string' && value.startsWith('\u0000')
      const selects = statements.filter(
        (query) => /^\s*select/i.test(query.sql) && !query.parameters.some(placeholder),
      )
      expect(selects.length).toBeGreaterThanOrEqual(reads.length)

      const problems: string[] = []
      for (const query of selects) {
        const plan = await explain(query)
        // A date's page merges two index-ordered sources of at most offset + limit rows each: that
        // small sort is expected.
        const listsJobs =
          /from "?jobs"?\s/i.test(query.sql) &&
          /order by "?jobs"?\."?created_at/i.test(query.sql) &&
          !/job_days/.test(query.sql)
        for (const table of TABLES) {
          const scan =
            dialect === 'sqlite'
              ? new RegExp(`\\bSCAN ${table}\\b(?! USING)`).test(plan)
              : new RegExp(`Seq Scan on ${table}\\b`).test(plan)
          if (scan) problems.push(`full scan of ${table}:\n${query.sql}\n${plan}`)
        }
        // A job's or vehicle's child rows are reached through their parent's id, never by walking
        // every row of the organisation (SQLite shows which index columns a search uses).
        const orgWide =
          /SEARCH (job_tags|job_demands|vehicle_tags|vehicle_capacities|shift_breaks|tags|capacity_dimensions) USING (COVERING )?INDEX \S+ \(organisation_id=\?\)/.exec(
            plan,
          )
        if (dialect === 'sqlite' && orgWide)
          problems.push(`${orgWide[1]} walked organisation-wide:\n${query.sql}\n${plan}`)
        // A search of three characters or more starts from the trigram index (PostgreSQL's planner
        // picks its pg_trgm index by the data; these tables are too small to show it).
        const searchesByTrigram = query.parameters.includes('%boiler%')
        if (dialect === 'sqlite' && searchesByTrigram && !/SCAN customers_trigram VIRTUAL TABLE/.test(plan))
          problems.push(`customer search without its trigram index:\n${query.sql}\n${plan}`)
        const sorts =
          dialect === 'sqlite' ? /TEMP B-TREE FOR ORDER BY/.test(plan) : /"Node Type": "Sort"/.test(plan)
        if (listsJobs && sorts) problems.push(`job list sorted after reading:\n${query.sql}\n${plan}`)
      }
      expect(problems).toEqual([])

      async function explain(query: CompiledQuery): Promise<string> {
        if (dialect === 'sqlite') {
          const rows = await db.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
          )
          return rows.rows.map((row) => row.detail).join('\n')
        }
        return db.connection().execute(async (connection) => {
          await sql`SET enable_seqscan = off`.execute(connection)
          try {
            const rows = await connection.executeQuery<{ 'QUERY PLAN': unknown }>(
              CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${query.sql}`, [...query.parameters]),
            )
            return JSON.stringify(rows.rows[0]?.['QUERY PLAN'], null, 1)
          } finally {
            await sql`RESET enable_seqscan`.execute(connection)
          }
        })
      }
    })
  })
}
