// `npx tsx bench/request-cpu.ts [--runs n]` — CPU time one request costs the server (issue 13,
// points 1 and 4): bodies nobody asked for (1 MiB of `[[[[…]]]]`) against the same request with a
// tiny body, and the documentation routes.
//
// The service runs in a child process on an in-memory SQLite database; this process sends each
// request `runs` times over one keep-alive connection (reading and discarding the answer) and asks
// the child for its process.cpuUsage() before and after, so the figures are the server's CPU alone,
// user + system, in milliseconds per request. Compare rows of one run: same machine, same moment.
import { fork } from 'node:child_process'
import { Agent, request as httpRequest } from 'node:http'
import { buildApp } from '../src/app.js'
import { createDatabase } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrator.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'

const MIB = 1024 * 1024
const NESTED = Buffer.from(`${'['.repeat(MIB / 2)}${']'.repeat(MIB / 2)}`)
const TINY = Buffer.from('{"a":1}')

interface Case {
  name: string
  method: 'GET' | 'POST' | 'DELETE' | 'OPTIONS'
  url: string
  key?: boolean
  body?: Buffer
  headers?: Record<string, string>
}

const BODY_TARGETS: Case[] = [
  { name: 'POST /v1/public/jobs, no key', method: 'POST', url: '/v1/public/jobs' },
  { name: 'POST unknown route', method: 'POST', url: '/nowhere' },
  { name: 'POST /healthz', method: 'POST', url: '/healthz' },
  { name: 'POST /v1/public/docs', method: 'POST', url: '/v1/public/docs' },
  { name: 'OPTIONS /v1/public/jobs', method: 'OPTIONS', url: '/v1/public/jobs' },
  { name: 'DELETE /v1/public/jobs/x (takes no body)', method: 'DELETE', url: '/v1/public/jobs/x', key: true },
  { name: 'POST /v1/public/jobs with key', method: 'POST', url: '/v1/public/jobs', key: true },
]

const CASES: Case[] = [
  ...BODY_TARGETS.flatMap((target) => [
    { ...target, name: `${target.name}, tiny body`, body: TINY },
    { ...target, name: `${target.name}, 1 MiB nested`, body: NESTED },
  ]),
  { name: 'GET /v1/public/openapi.json', method: 'GET', url: '/v1/public/openapi.json' },
  { name: 'GET /v1/admin/openapi.json', method: 'GET', url: '/v1/admin/openapi.json' },
  { name: 'GET /v1/admin/docs/json', method: 'GET', url: '/v1/admin/docs/json' },
  { name: 'GET /v1/admin/docs/yaml', method: 'GET', url: '/v1/admin/docs/yaml' },
  { name: 'GET /v1/public/docs/ (page)', method: 'GET', url: '/v1/public/docs/' },
  {
    name: 'GET /v1/public/docs/static/swagger-ui-bundle.js',
    method: 'GET',
    url: '/v1/public/docs/static/swagger-ui-bundle.js',
  },
  { name: 'GET /healthz', method: 'GET', url: '/healthz' },
]

type FromServer = { port: number; key: string } | { cpu: NodeJS.CpuUsage }

/** The child: the service on a free port; answers 'cpu' with its CPU time so far. */
async function serve(): Promise<void> {
  const database = createDatabase(':memory:')
  await migrateToLatest(database.db, 'sqlite')
  const app = await buildApp({
    db: database.db,
    dialect: 'sqlite',
    config: {
      authCacheTtlMs: 60_000,
      defaultRateLimitPerMinute: 100,
      bodyLimitBytes: MIB,
      webhookDispatcher: false,
      planWorkers: 0,
      // Measured, not throttled (builds without a per-IP limit ignore it).
      ipRateLimitPerMinute: 1_000_000_000,
    } as Parameters<typeof buildApp>[0]['config'],
  })
  const org = await createOrganisation(database.db, { name: 'Bench', plan: 'PRO' })
  const { key } = await createApiKey(database.db, {
    organisationId: org.id,
    name: 'bench',
    scopes: ['read', 'write'],
    rateLimitPerMinute: 100_000_000,
    expiresAt: null,
  })
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() } satisfies FromServer)
    if (message === 'stop') void app.close().then(() => process.exit(0))
  })
  process.send?.({ port: Number(new URL(address).port), key } satisfies FromServer)
}

async function measure(): Promise<void> {
  const runsArgument = process.argv.indexOf('--runs')
  const runs = runsArgument === -1 ? 40 : Number(process.argv[runsArgument + 1])
  const child = fork(process.argv[1] as string, ['--serve'], { execArgv: ['--import', 'tsx'] })
  const next = () =>
    new Promise<FromServer>((resolve) => child.once('message', (m) => resolve(m as FromServer)))
  const { port, key } = (await next()) as { port: number; key: string }
  const cpu = async () => {
    const answer = next()
    child.send('cpu')
    const { user, system } = ((await answer) as { cpu: NodeJS.CpuUsage }).cpu
    return user + system
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const send = (c: Case) =>
    new Promise<{ status: number; etag: string | undefined }>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: '127.0.0.1',
          port,
          agent,
          method: c.method,
          path: c.url,
          headers: {
            ...(c.key ? { authorization: `Bearer ${key}` } : {}),
            ...(c.body === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': c.body.length }),
            ...c.headers,
          },
        },
        (response) => {
          response.resume()
          response.on('end', () => resolve({ status: response.statusCode ?? 0, etag: response.headers.etag }))
        },
      )
      outgoing.on('error', reject)
      outgoing.end(c.body)
    })

  // The conditional form of the documents, when they carry an ETag.
  for (const url of ['/v1/admin/openapi.json', '/v1/public/docs/']) {
    const { etag } = await send({ name: '', method: 'GET', url })
    if (etag)
      CASES.push({ name: `GET ${url} If-None-Match`, method: 'GET', url, headers: { 'if-none-match': etag } })
  }
  const rows: string[] = []
  for (const c of CASES) {
    for (let i = 0; i < 5; i++) await send(c) // warm-up
    const { status } = await send(c)
    const before = await cpu()
    for (let i = 0; i < runs; i++) await send(c)
    const ms = ((await cpu()) - before) / 1000 / runs
    rows.push(`| ${c.name} | ${status} | ${ms.toFixed(2)} |`)
  }
  process.stdout.write(`| request | status | server CPU ms/request |\n|---|---|---|\n${rows.join('\n')}\n`)
  agent.destroy()
  child.send('stop')
}

if (process.argv.includes('--serve')) await serve()
else await measure()
