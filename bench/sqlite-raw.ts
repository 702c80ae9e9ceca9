// The SQLite yardsticks (bench/raw-routes.ts): GET /jobs/:id, GET /jobs, POST /jobs and PATCH /jobs/:id
// on Fastify with better-sqlite3 statements prepared at start-up. Writes run in one IMMEDIATE
// transaction with synchronous=FULL, as durable as the service's (which reaches FULL through its own
// WAL fdatasync, see src/db/database.ts).
// Env: DATABASE_URL (the SQLite file, as the service gets it; a `sqlite:` prefix is accepted),
// ORGANISATION_ID, PORT.
import Database from 'better-sqlite3'
import Fastify from 'fastify'
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
  sqlitePlaceholder as p,
  referencesSql,
  TERMINAL,
  takeNumberSql,
  totalSql,
  updatedEvent,
  updateJobSql,
} from './raw-routes.js'

const file = (process.env.DATABASE_URL ?? '').replace(/^sqlite:(\/\/)?/i, '')
const db = new Database(file)
db.pragma('journal_mode = WAL')
db.pragma('busy_timeout = 5000')
db.pragma('synchronous = FULL')
db.pragma('temp_store = MEMORY')
const organisationId = process.env.ORGANISATION_ID as string

const detail = db.prepare(detailSql(p))
const listPage = db.prepare(listPageSql(p))
const total = db.prepare(totalSql(p)).pluck()
const references = db.prepare(referencesSql(p))
const insertJob = db.prepare(insertJobSql(p))
const takeNumber = db.prepare(takeNumberSql(p)).pluck()
const insertOutbox = db.prepare(insertOutboxSql(p))
const current = db.prepare(currentForUpdateSql(p))
const update = db.prepare(updateJobSql(p))

type Found = { customer: string | null; locationName: string | null }
const create = db.transaction((body: CreateBody) => {
  const found = references.get(
    organisationId,
    body.customerId ?? null,
    organisationId,
    body.locationId ?? null,
  ) as Found
  if (body.customerId && !found.customer) return undefined
  const now = new Date().toISOString()
  const number = takeNumber.get(organisationId) as number
  const { job, values, event } = newJob(newId(), organisationId, body, now, number)
  insertJob.run(values)
  insertOutbox.run(newId(), organisationId, 'JOB_CREATED', event, now)
  return createdDetail(job, found.customer ? JSON.parse(found.customer) : null, found.locationName)
})

const patch = db.transaction((id: string, body: PatchBody) => {
  const row = current.get(organisationId, id) as Parameters<typeof updatedEvent>[1] | undefined
  if (!row) return undefined
  if (row.status === 'COMPLETED' || row.status === 'CANCELLED') return 'terminal'
  const at = new Date().toISOString()
  update.run(organisationId, id, body.title, body.priority, body.serviceDuration, at)
  insertOutbox.run(newId(), organisationId, 'JOB_UPDATED', updatedEvent(id, row, body, at), at)
  return detailOf(detail.get(organisationId, id) as Record<string, unknown>)
})

const app = Fastify({ logger: false })
const one = { schema: { response: { 200: JobResponse, 201: JobResponse } } }

app.get<{ Params: { id: string } }>('/v1/public/jobs/:id', one, async (request, reply) => {
  const row = detail.get(organisationId, request.params.id) as Record<string, unknown> | undefined
  if (row === undefined) return reply.status(404).send(JOB_NOT_FOUND)
  return { data: { job: detailOf(row) }, message: 'Success' }
})

app.get('/v1/public/jobs', { schema: { response: { 200: JobListResponse } } }, async () =>
  listResponse(listPage.all(organisationId) as never[], Number(total.get(organisationId) ?? 0)),
)

app.post<{ Body: CreateBody }>('/v1/public/jobs', one, async (request, reply) => {
  const job = create.immediate(request.body)
  if (!job) return reply.status(400).send({ error: 'customerId does not exist', code: 'VALIDATION_ERROR' })
  return reply.status(201).send({ data: { job }, message: 'Success' })
})

app.patch<{ Params: { id: string }; Body: PatchBody }>('/v1/public/jobs/:id', one, async (request, reply) => {
  const job = patch.immediate(request.params.id, request.body)
  if (!job) return reply.status(404).send(JOB_NOT_FOUND)
  if (job === 'terminal') return reply.status(422).send(TERMINAL)
  return { data: { job }, message: 'Success' }
})

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) })
process.stdout.write(`listening ${new URL(address).port}\n`)
process.once('SIGTERM', () => {
  app.close().then(() => {
    db.close()
    process.exit(0)
  })
})
