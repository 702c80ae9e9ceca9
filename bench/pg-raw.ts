// The PostgreSQL yardsticks (bench/raw-routes.ts): GET /jobs/:id, GET /jobs, POST /jobs and
// PATCH /jobs/:id on Fastify with `pg` named statements (parsed once per connection). A write is
// BEGIN, its statements and COMMIT on one pooled connection.
// Env: DATABASE_URL, ORGANISATION_ID, PORT, PG_POOL_SIZE (as the service's, default 10).
import Fastify from 'fastify'
import pg from 'pg'
import { newId } from '../src/db/ids.js'
import {
  type CreateBody,
  createdDetail,
  currentForUpdateSql,
  detailOf,
  detailSql,
  insertJobSql,
  insertOutboxSql,
  JOB_NOT_FOUND,
  JobListResponse,
  JobResponse,
  listPageSql,
  listResponse,
  newJob,
  type PatchBody,
  pgPlaceholder as p,
  referencesSql,
  TERMINAL,
  takeNumberSql,
  totalSql,
  updatedEvent,
  updateJobSql,
} from './raw-routes.js'

const TIMESTAMPTZ_OID = 1184
const INT8_OID = 20
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.PG_POOL_SIZE ?? 10),
  // As the service's pool: named statements are planned once per connection (src/db/database.ts).
  options: '-c plan_cache_mode=force_generic_plan',
  // The same conversions as the service's pool: datetimes leave as ISO strings, counts as numbers.
  types: {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === TIMESTAMPTZ_OID) return (value: string) => new Date(value).toISOString()
      if (oid === INT8_OID) return Number
      return pg.types.getTypeParser(oid, format as 'text')
    },
  } as pg.CustomTypesConfig,
})
pool.on('error', () => {})
const organisationId = process.env.ORGANISATION_ID as string

const statement = (name: string, text: string) => (values: unknown[]) => ({ name, text, values })
const detail = statement('raw_job_detail', detailSql(p))
const listPage = statement('raw_jobs_page', listPageSql(p))
const total = statement('raw_jobs_total', totalSql(p))
const references = statement('raw_job_references', referencesSql(p))
const insertJob = statement('raw_insert_job', insertJobSql(p))
const takeNumber = statement('raw_take_job_number', takeNumberSql(p))
const insertOutbox = statement('raw_insert_outbox', insertOutboxSql(p))
const current = statement('raw_job_for_update', currentForUpdateSql(p))
const update = statement('raw_update_job', updateJobSql(p))

async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

const app = Fastify({ logger: false })
const one = { schema: { response: { 200: JobResponse, 201: JobResponse } } }

app.get<{ Params: { id: string } }>('/v1/public/jobs/:id', one, async (request, reply) => {
  const { rows } = await pool.query(detail([organisationId, request.params.id]))
  if (rows.length === 0) return reply.status(404).send(JOB_NOT_FOUND)
  return { data: { job: detailOf(rows[0]) }, message: 'Success' }
})

app.get('/v1/public/jobs', { schema: { response: { 200: JobListResponse } } }, async () => {
  const [page, counted] = await Promise.all([
    pool.query(listPage([organisationId])),
    pool.query(total([organisationId])),
  ])
  return listResponse(page.rows, Number(counted.rows[0]?.count ?? 0))
})

app.post<{ Body: CreateBody }>('/v1/public/jobs', one, async (request, reply) => {
  const body = request.body
  const job = await inTransaction(async (client) => {
    const { rows } = await client.query(
      references([organisationId, body.customerId ?? null, organisationId, body.locationId ?? null]),
    )
    const found = rows[0] as { customer: Parameters<typeof createdDetail>[1]; locationName: string | null }
    if (body.customerId && !found.customer) return undefined
    const now = new Date().toISOString()
    const taken = await client.query(takeNumber([organisationId]))
    const number = Number((taken.rows[0] as { last_number: number }).last_number)
    const created = newJob(newId(), organisationId, body, now, number)
    await client.query(insertJob(created.values))
    await client.query(insertOutbox([newId(), organisationId, 'JOB_CREATED', created.event, now]))
    return createdDetail(created.job, found.customer, found.locationName)
  })
  if (!job) return reply.status(400).send({ error: 'customerId does not exist', code: 'VALIDATION_ERROR' })
  return reply.status(201).send({ data: { job }, message: 'Success' })
})

app.patch<{ Params: { id: string }; Body: PatchBody }>('/v1/public/jobs/:id', one, async (request, reply) => {
  const { id } = request.params
  const body = request.body
  const job = await inTransaction(async (client) => {
    const { rows } = await client.query(current([organisationId, id]))
    const row = rows[0] as Parameters<typeof updatedEvent>[1] | undefined
    if (!row) return undefined
    if (row.status === 'COMPLETED' || row.status === 'CANCELLED') return 'terminal' as const
    const at = new Date().toISOString()
    await client.query(update([organisationId, id, body.title, body.priority, body.serviceDuration, at]))
    await client.query(
      insertOutbox([newId(), organisationId, 'JOB_UPDATED', updatedEvent(id, row, body, at), at]),
    )
    return detailOf((await client.query(detail([organisationId, id]))).rows[0])
  })
  if (!job) return reply.status(404).send(JOB_NOT_FOUND)
  if (job === 'terminal') return reply.status(422).send(TERMINAL)
  return { data: { job }, message: 'Success' }
})

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) })
process.stdout.write(`listening ${new URL(address).port}\n`)
process.once('SIGTERM', () => {
  app.close().then(() => pool.end().finally(() => process.exit(0)))
})
