// An organisation with at least one of everything an archive holds, for the archive tests: the demo's
// depots, fleet, team, shifts, absences, customers and jobs in every status, and then through the
// admin API a tagged form template with requirements, a series (whose job template names a customer)
// with its jobs, and a completed job with its requirements, form answers, photo, signature and notes.
import { gunzipSync } from 'node:zlib'
import sharp from 'sharp'
import { seedDemoOrganisation } from '../src/cli/demo-seed.js'
import { makeCapacityDimension, makeTag, setJobState, tagJob } from './factories.js'
import type { TestContext } from './helpers.js'
import { makeDashboardUser, type SignedIn, sessionClient, signIn } from './sessions.js'

export interface ArchiveFixture {
  organisationId: string
  admin: SignedIn
  dispatcher: SignedIn
  completedJobId: string
}

export async function buildArchiveFixture(t: TestContext): Promise<ArchiveFixture> {
  const { organisationId } = await seedDemoOrganisation(t.database.db)
  const admin = await signIn(
    t,
    await makeDashboardUser(t, organisationId, { role: 'ADMIN', name: 'Ada Admin' }),
  )
  const dispatcher = await signIn(
    t,
    await makeDashboardUser(t, organisationId, { role: 'DISPATCHER', name: 'Dev Dispatcher' }),
  )
  const worker = await makeDashboardUser(t, organisationId, { role: 'WORKER', name: 'Wendy Worker' })
  const api = sessionClient(t, admin)
  const phone = sessionClient(t, await signIn(t, worker))
  const ok = (response: { status: number; body: unknown }, status = 200) => {
    if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`)
    return response.body as { data: Record<string, { id: string }> }
  }

  const tag = await makeTag(t.database.db, organisationId, 'Gas')
  await makeCapacityDimension(t.database.db, organisationId, 'weight', 'Weight (kg)')
  const template = ok(
    await api.post('/form-templates', {
      name: 'Gas safety record',
      appliesTo: 'TAGGED_JOBS',
      tagId: tag.id,
      fields: [{ key: 'pressure', label: 'Pressure', type: 'NUMBER' }],
      requires: { signature: true, photos: 1 },
    }),
    201,
  ).data.formTemplate as { id: string }
  const customers = ok(await api.get('/customers')).data.customers as unknown as { id: string }[]
  const today = new Date().toISOString().slice(0, 10)
  const series = ok(
    await api.post('/job-series', {
      job: { title: 'Office clean', serviceDuration: 3600, customerId: customers[0]?.id },
      rrule: 'FREQ=WEEKLY;COUNT=3',
      startDate: today,
    }),
    201,
  ).data.series as { id: string }
  const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)
  ok(await api.post(`/job-series/${series.id}/occurrences/${nextWeek}/skip`))
  // A shift off on a date of its weekday (the demo's shifts are weekly templates).
  const shift = await t.database.db
    .selectFrom('shifts')
    .select(['id', 'day'])
    .where('organisation_id', '=', organisationId)
    .executeTakeFirstOrThrow()
  const weekdays = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']
  let date = new Date(Date.now() + 14 * 86_400_000)
  while (weekdays[date.getUTCDay()] !== shift.day) date = new Date(date.getTime() + 86_400_000)
  ok(await api.put(`/shifts/${shift.id}/dates/${date.toISOString().slice(0, 10)}`, { off: true }))

  const job = ok(await api.post('/jobs', { title: 'Boiler service', customerId: customers[1]?.id }), 201).data
    .job as { id: string }
  await tagJob(t.database.db, organisationId, job.id, tag.id)
  ok(await api.put(`/jobs/${job.id}/requirements`, { requires: { notes: true } }))
  await setJobState(t.database.db, organisationId, job.id, {
    status: 'IN_PROGRESS',
    assignedUserId: worker.id,
    startedAt: new Date(Date.now() - 3_600_000).toISOString(),
  })
  ok(
    await api.post(`/jobs/${job.id}/form-submissions`, {
      templateId: template.id,
      answers: { pressure: 1.5 },
    }),
    201,
  )
  const upload = async (query: Record<string, string>, payload: Buffer) =>
    ok(
      await t.app
        .inject({
          method: 'POST',
          url: `/v1/admin/jobs/${job.id}/attachments?${new URLSearchParams(query)}`,
          headers: {
            cookie: `fs_session=${admin.cookie}`,
            'x-csrf-token': admin.csrfToken,
            'content-type': 'application/octet-stream',
          },
          payload,
        })
        .then((r) => ({ status: r.statusCode, body: r.json() })),
      201,
    )
  const picture = (format: 'jpeg' | 'png') =>
    sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 30, g: 90, b: 200 } } })
      .toFormat(format)
      .toBuffer()
  await upload({ kind: 'PHOTO', filename: 'boiler.jpg' }, await picture('jpeg'))
  await upload(
    { kind: 'SIGNATURE', filename: 'signature.png', signerName: 'Carol Customer' },
    await picture('png'),
  )
  ok(await phone.post(`/my/jobs/${job.id}/complete`, { notes: 'Replaced the pump; pressure 1.5 bar' }))
  return { organisationId, admin, dispatcher, completedJobId: job.id }
}

export interface ArchiveLine {
  type?: string
  data?: Record<string, unknown>
  [key: string]: unknown
}

export const archiveLinesOf = (gzipped: Buffer): ArchiveLine[] =>
  gunzipSync(gzipped)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ArchiveLine)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * The records of an archive with every id replaced by its order of first appearance (inside JSON
 * texts too), so two archives of the same data under different ids compare equal. The header's
 * organisation and export time are left out: they are the two organisations'.
 */
export function normalisedRecords(lines: ArchiveLine[]): unknown[] {
  const ids = new Map<string, string>()
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (UUID.test(value)) {
        if (!ids.has(value)) ids.set(value, `id#${ids.size}`)
        return ids.get(value)
      }
      if (value.startsWith('{') || value.startsWith('[')) {
        try {
          return { json: walk(JSON.parse(value)) }
        } catch {
          return value
        }
      }
      return value
    }
    if (Array.isArray(value)) return value.map(walk)
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]))
    return value
  }
  const [header, ...records] = lines
  return [
    {
      counts: header?.counts,
      settings: (header?.organisation as { settings?: unknown } | undefined)?.settings,
    },
    ...records.map(walk),
  ]
}
