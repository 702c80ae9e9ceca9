// The PostgreSQL yardstick for GET /jobs/:id: a Fastify route doing one raw prepared `pg` read (a
// named statement, parsed once per connection) of the same job row, serialised through a response
// schema. Issue 5 asks the service's full single-job read to reach 0.8 × this in the same run.
// Env: DATABASE_URL, ORGANISATION_ID, PORT, PG_POOL_SIZE (as the service's, default 10).
import Fastify from 'fastify'
import pg from 'pg'
import { JOB_NOT_FOUND, JobResponse, jobByIdSql } from './raw-job.js'

const TIMESTAMPTZ_OID = 1184
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.PG_POOL_SIZE ?? 10),
  // The same conversion as the service's pool: datetimes leave as ISO strings.
  types: {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === TIMESTAMPTZ_OID) return (value: string) => new Date(value).toISOString()
      return pg.types.getTypeParser(oid, format as 'text')
    },
  } as pg.CustomTypesConfig,
})
pool.on('error', () => {})
const organisationId = process.env.ORGANISATION_ID

const QUERY = { name: 'bench_job_by_id', text: jobByIdSql('$1', '$2') }

const app = Fastify({ logger: false })
app.get<{ Params: { id: string } }>(
  '/v1/public/jobs/:id',
  { schema: { response: { 200: JobResponse } } },
  async (request, reply) => {
    const { rows } = await pool.query({ ...QUERY, values: [organisationId, request.params.id] })
    if (rows.length === 0) return reply.status(404).send(JOB_NOT_FOUND)
    return { data: { job: rows[0] }, message: 'Success' }
  },
)

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) })
process.stdout.write(`listening ${new URL(address).port}\n`)
process.once('SIGTERM', () => {
  app.close().then(() => pool.end().finally(() => process.exit(0)))
})
