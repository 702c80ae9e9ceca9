// The SQLite yardstick for GET /jobs/:id: a Fastify route reading the same job row with one
// better-sqlite3 statement prepared at start-up, serialised through the same response schema as the
// raw pg route ("Fastify + a prepared better-sqlite3 primary-key SELECT" in issue 5's reference
// figures). Informational: no target is set against it. The file is opened read-only, so the route
// never writes to the working copy the service is using.
// Env: DATABASE_URL (the SQLite file, as the service gets it; a `sqlite:` prefix is accepted),
// ORGANISATION_ID, PORT.
import Database from 'better-sqlite3'
import Fastify from 'fastify'
import { JOB_NOT_FOUND, JobResponse, jobByIdSql } from './raw-job.js'

const file = (process.env.DATABASE_URL ?? '').replace(/^sqlite:(\/\/)?/i, '')
const db = new Database(file, { readonly: true })
const statement = db.prepare(jobByIdSql('?', '?'))
const organisationId = process.env.ORGANISATION_ID

const app = Fastify({ logger: false })
app.get<{ Params: { id: string } }>(
  '/v1/public/jobs/:id',
  { schema: { response: { 200: JobResponse } } },
  async (request, reply) => {
    const job = statement.get(organisationId, request.params.id)
    if (job === undefined) return reply.status(404).send(JOB_NOT_FOUND)
    return { data: { job }, message: 'Success' }
  },
)

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) })
process.stdout.write(`listening ${new URL(address).port}\n`)
process.once('SIGTERM', () => {
  app.close().then(() => {
    db.close()
    process.exit(0)
  })
})
