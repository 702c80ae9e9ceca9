// Recurring job series (issue 31 §1): a template and an RFC 5545 rule whose occurrences become jobs
// SERIES_HORIZON_DAYS ahead, once each however many generators run, through POST /jobs' own service
// (JOB_CREATED once per occurrence), keeping the window's local time across daylight-saving changes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  makeCapacityDimension,
  makeLocation,
  makeTag,
  outboxEvents,
  setJobState,
} from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { ambientDatabase, inAmbientTransaction } from '../../db/ambient-transaction.js'
import { isUniqueViolation } from '../../db/errors.js'
import { createJob } from '../jobs/service.js'
import { generateSeries, SeriesGenerator } from './generator.js'
import { lockSeries } from './repository.js'

const MONDAY = Date.parse('2027-01-04T08:00:00Z')
const DAY = 86_400_000
const NINE_TO_ELEVEN = { startTime: '09:00', endTime: '11:00', type: 'HARD' }

interface JobShape {
  id: string
  title: string
  status: string
  priority: string
  seriesId: string | null
  occurrenceDate: string | null
  earliestStart: string | null
  latestEnd: string | null
  timeWindowType: string
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: job series`, () => {
    let t: TestContext
    let now = MONDAY
    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
    })
    afterAll(() => t.close())
    beforeEach(() => {
      now = MONDAY
    })

    async function tenant() {
      const created = await createTenant(t, { scopes: ['admin'] })
      return { ...created, admin: adminClient(t, created.headers), api: client(t, created.headers) }
    }

    async function seriesJobs(admin: ReturnType<typeof adminClient>, seriesId: string): Promise<JobShape[]> {
      const listed = await admin.get('/jobs?limit=100')
      const ids = (listed.body.data.jobs as JobShape[])
        .filter((j) => j.seriesId === seriesId)
        .map((j) => j.id)
      const jobs: JobShape[] = []
      for (const id of ids) jobs.push((await admin.get(`/jobs/${id}`)).body.data.job)
      return jobs.sort((a, b) => (a.occurrenceDate ?? '').localeCompare(b.occurrenceDate ?? ''))
    }

    it('weekly COUNT=3: three jobs with seriesId and occurrenceDate, JOB_CREATED three times', async () => {
      const { admin, api, organisationId } = await tenant()
      const created = await admin.post('/job-series', {
        job: { title: 'Office clean', serviceDuration: 3600, priority: 'HIGH' },
        rrule: 'RRULE:freq=weekly;byday=MO;count=3',
        startDate: '2027-01-04',
        window: NINE_TO_ELEVEN,
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const series = created.body.data.series
      expect(series).toMatchObject({
        rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=3',
        ruleText: 'every week on Monday for 3 times',
        startDate: '2027-01-04',
        endDate: null,
        window: NINE_TO_ELEVEN,
        timeZone: 'UTC',
        job: { title: 'Office clean', serviceDuration: 3600, priority: 'HIGH' },
      })
      const jobs = await seriesJobs(admin, series.id)
      expect(jobs.map((j) => [j.occurrenceDate, j.earliestStart, j.latestEnd, j.status, j.priority])).toEqual(
        [
          ['2027-01-04', '2027-01-04T09:00:00.000Z', '2027-01-04T11:00:00.000Z', 'CREATED', 'HIGH'],
          ['2027-01-11', '2027-01-11T09:00:00.000Z', '2027-01-11T11:00:00.000Z', 'CREATED', 'HIGH'],
          ['2027-01-18', '2027-01-18T09:00:00.000Z', '2027-01-18T11:00:00.000Z', 'CREATED', 'HIGH'],
        ],
      )
      expect(series.nextOccurrences).toEqual(
        jobs.map((j) => ({ date: j.occurrenceDate, movedTo: null, skipped: false, jobId: j.id })),
      )
      const events = await outboxEvents(t.database.db, organisationId)
      expect(events.map((e) => e.event)).toEqual(['JOB_CREATED', 'JOB_CREATED', 'JOB_CREATED'])
      expect(events.map((e) => e.data.occurrenceDate)).toEqual(['2027-01-04', '2027-01-11', '2027-01-18'])
      expect(events.every((e) => e.data.seriesId === series.id)).toBe(true)

      // The public API shows the two fields, read-only.
      const publicJob = (await api.get(`/jobs/${jobs[0]!.id}`)).body.data.job
      expect(publicJob).toMatchObject({ seriesId: series.id, occurrenceDate: '2027-01-04' })
      const listed = (await api.get('/jobs')).body.data.jobs
      expect(listed.every((j: JobShape) => j.seriesId === series.id)).toBe(true)
      const refused = await api.patch(`/jobs/${jobs[0]!.id}`, { seriesId: null })
      expect(refused.status).toBe(400)

      // Generating again makes nothing twice.
      await t.app.series.generateAll()
      expect(await seriesJobs(admin, series.id)).toHaveLength(3)
    })

    it('keeps to the horizon, moves on with the clock and never makes an occurrence twice', async () => {
      const { admin, organisationId } = await tenant()
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Daily check' },
          rrule: 'FREQ=DAILY',
          startDate: '2027-01-01',
        })
      ).body.data.series
      // Today (4 January) and the 27 days after it: the past days of the rule are not made.
      let jobs = await seriesJobs(admin, series.id)
      expect(jobs).toHaveLength(28)
      expect(jobs[0]!.occurrenceDate).toBe('2027-01-04')
      expect(jobs.at(-1)!.occurrenceDate).toBe('2027-01-31')

      // (The file's other series, of other organisations, are generated too: this one's jobs are counted.)
      now = MONDAY + 7 * DAY
      await t.app.series.generateAll()
      expect(await seriesJobs(admin, series.id)).toHaveLength(35)
      await t.app.series.generateAll()
      expect(await seriesJobs(admin, series.id)).toHaveLength(35)
      now = MONDAY + 10 * DAY
      await Promise.all([t.app.series.generateAll(), t.app.series.generateAll()])
      jobs = await seriesJobs(admin, series.id)
      expect(jobs).toHaveLength(38)
      expect(new Set(jobs.map((j) => j.occurrenceDate)).size).toBe(38)
      const created = (await outboxEvents(t.database.db, organisationId)).filter(
        (e) => e.event === 'JOB_CREATED',
      )
      expect(created).toHaveLength(38)
    })

    it('a write of the series made while the generator runs waits for it and sees its jobs', async () => {
      const { admin, headers, organisationId } = await tenant()
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Daily check' },
          rrule: 'FREQ=DAILY',
          startDate: '2027-01-04',
        })
      ).body.data.series
      now = MONDAY + 3 * DAY
      // The generator's run for this series, held open after making the three new days' jobs.
      let finish = () => {}
      const held = new Promise<void>((resolve) => {
        finish = resolve
      })
      let generated = () => {}
      const madeJobs = new Promise<void>((resolve) => {
        generated = resolve
      })
      const joined = ambientDatabase(t.database.db)
      const run = inAmbientTransaction(t.database.db, async () => {
        const row = await lockSeries(joined, organisationId, series.id)
        const made = row ? await generateSeries(joined, row, now, 28) : 0
        generated()
        await held
        return made
      })
      await madeJobs
      // An idempotent request runs in its own transaction: a unique violation there would end it. Moving
      // an occurrence the generator is making, it waits for the generator and moves the job it made.
      const move = t.app.inject({
        method: 'POST',
        url: `/v1/admin/job-series/${series.id}/occurrences/2027-02-02/move`,
        headers: { ...headers, 'idempotency-key': `race-${series.id}` },
        payload: { date: '2027-02-04' },
      })
      await new Promise((resolve) => setTimeout(resolve, 200))
      finish()
      expect(await run).toBe(3)
      const moved = await move
      expect(moved.statusCode, moved.body).toBe(200)
      const jobs = await seriesJobs(admin, series.id)
      expect(jobs).toHaveLength(31)
      expect(new Set(jobs.map((j) => j.occurrenceDate)).size).toBe(31)
      const job = jobs.find((j) => j.occurrenceDate === '2027-02-02')
      expect(moved.json().data.occurrence).toEqual({
        date: '2027-02-02',
        movedTo: '2027-02-04',
        skipped: false,
        jobId: job?.id,
      })
      expect(job?.earliestStart?.slice(0, 10)).toBe('2027-02-04')
    })

    it('the unique key refuses a second job for one occurrence; one instance at a time holds the lease', async () => {
      const { admin, organisationId } = await tenant()
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Once' },
          rrule: 'FREQ=DAILY;COUNT=1',
          startDate: '2027-01-04',
        })
      ).body.data.series
      const occurrence = { seriesId: series.id, occurrenceDate: '2027-01-04', tagIds: [], demands: [] }
      const again = createJob(t.database.db, organisationId, { title: 'Twice' }, occurrence)
      await expect(again).rejects.toSatisfy(isUniqueViolation)
      expect(await seriesJobs(admin, series.id)).toHaveLength(1)

      const settings = { horizonDays: 28, generateSeconds: 3600 }
      const log = { error: () => {}, warn: () => {} }
      const one = new SeriesGenerator(t.database.db, () => now, settings, log)
      const other = new SeriesGenerator(t.database.db, () => now, settings, log)
      expect(await one.tick()).toBe(true)
      expect(await other.tick()).toBe(false)
      await one.close()
      expect(await other.tick()).toBe(true)
      await other.close()
    })

    it('MONTHLY on the 2nd Tuesday every 3 months: its dates and its words', async () => {
      const { admin } = await tenant()
      now = Date.parse('2027-01-01T12:00:00Z')
      const created = await admin.post('/job-series', {
        job: { title: 'Quarterly filter change' },
        rrule: 'FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU',
        startDate: '2027-01-01',
        window: { startTime: '09:00', endTime: '12:00', type: 'SOFT' },
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const series = created.body.data.series
      expect(series.ruleText).toBe('every 3 months on the 2nd Tuesday')
      expect(series.nextOccurrences.map((o: { date: string }) => o.date)).toEqual([
        '2027-01-12',
        '2027-04-13',
        '2027-07-13',
        '2027-10-12',
        '2028-01-11',
      ])
      // Only January's is within 28 days.
      expect(series.nextOccurrences.map((o: { jobId: string | null }) => o.jobId !== null)).toEqual([
        true,
        false,
        false,
        false,
        false,
      ])
      const [job] = await seriesJobs(admin, series.id)
      expect(job).toMatchObject({ timeWindowType: 'SOFT', earliestStart: '2027-01-12T09:00:00.000Z' })
    })

    it("keeps 09:00 in the depot's zone across the change to summer time (Europe/London, 28 March 2027)", async () => {
      const { admin, organisationId } = await tenant()
      const depot = await makeLocation(t.database.db, organisationId, { timezone: 'Europe/London' })
      now = Date.parse('2027-03-15T06:00:00Z')
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Boiler check', locationId: depot.id },
          rrule: 'FREQ=WEEKLY;BYDAY=MO',
          startDate: '2027-03-15',
          window: NINE_TO_ELEVEN,
        })
      ).body.data.series
      expect(series.timeZone).toBe('Europe/London')
      const jobs = await seriesJobs(admin, series.id)
      expect(jobs.map((j) => [j.occurrenceDate, j.earliestStart, j.latestEnd])).toEqual([
        ['2027-03-15', '2027-03-15T09:00:00.000Z', '2027-03-15T11:00:00.000Z'],
        ['2027-03-22', '2027-03-22T09:00:00.000Z', '2027-03-22T11:00:00.000Z'],
        ['2027-03-29', '2027-03-29T08:00:00.000Z', '2027-03-29T10:00:00.000Z'],
        ['2027-04-05', '2027-04-05T08:00:00.000Z', '2027-04-05T10:00:00.000Z'],
      ])
    })

    it("without a window: the whole local day, HARD (the organisation's primary depot's zone)", async () => {
      const { admin, organisationId } = await tenant()
      await makeLocation(t.database.db, organisationId, { timezone: 'Europe/London', isPrimary: true })
      now = Date.parse('2027-06-01T06:00:00Z')
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Any time' },
          rrule: 'FREQ=DAILY;COUNT=1',
          startDate: '2027-06-02',
          window: null,
        })
      ).body.data.series
      expect(series.window).toBeNull()
      const [job] = await seriesJobs(admin, series.id)
      expect(job).toMatchObject({
        occurrenceDate: '2027-06-02',
        earliestStart: '2027-06-01T23:00:00.000Z',
        latestEnd: '2027-06-02T23:00:00.000Z',
        timeWindowType: 'HARD',
      })
    })

    it('writes the template’s tags and demands on each job, JOB_CREATED still once each', async () => {
      const { admin, organisationId } = await tenant()
      const tag = await makeTag(t.database.db, organisationId, 'Gas safe')
      const dimension = await makeCapacityDimension(t.database.db, organisationId, 'filters')
      const series = (
        await admin.post('/job-series', {
          job: {
            title: 'Filters',
            tagIds: [tag.id],
            demands: [{ capacityDimensionId: dimension.id, requiredValue: 2 }],
          },
          rrule: 'FREQ=WEEKLY;COUNT=2',
          startDate: '2027-01-05',
        })
      ).body.data.series
      const jobs = (await seriesJobs(admin, series.id)) as unknown as {
        tags: { tag: { id: string } }[]
        demands: { requiredValue: number }[]
      }[]
      expect(jobs.map((j) => [j.tags.map((x) => x.tag.id), j.demands.map((d) => d.requiredValue)])).toEqual([
        [[tag.id], [2]],
        [[tag.id], [2]],
      ])
      const events = await outboxEvents(t.database.db, organisationId)
      expect(events.map((e) => e.event)).toEqual(['JOB_CREATED', 'JOB_CREATED'])
    })

    it('PATCH changes only future occurrences by default; FUTURE_JOBS also the CREATED jobs, never an ASSIGNED one', async () => {
      const { admin, organisationId } = await tenant()
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Clean', priority: 'NORMAL' },
          rrule: 'FREQ=WEEKLY;BYDAY=MO',
          startDate: '2027-01-04',
          window: NINE_TO_ELEVEN,
        })
      ).body.data.series
      const before = await seriesJobs(admin, series.id)
      expect(before).toHaveLength(4)
      await setJobState(t.database.db, organisationId, before[1]!.id, { status: 'ASSIGNED' })

      const patched = await admin.patch(`/job-series/${series.id}`, { job: { title: 'Deep clean' } })
      expect(patched.status, JSON.stringify(patched.body)).toBe(200)
      expect(patched.body.data.series.job).toMatchObject({ title: 'Deep clean', priority: 'NORMAL' })
      expect((await seriesJobs(admin, series.id)).map((j) => j.title)).toEqual([
        'Clean',
        'Clean',
        'Clean',
        'Clean',
      ])
      now = MONDAY + 7 * DAY
      await t.app.series.generateAll()
      expect((await seriesJobs(admin, series.id)).map((j) => j.title)).toEqual([
        'Clean',
        'Clean',
        'Clean',
        'Clean',
        'Deep clean',
      ])

      const eventsBefore = (await outboxEvents(t.database.db, organisationId)).length
      const applied = await admin.patch(`/job-series/${series.id}`, {
        job: { priority: 'HIGH' },
        window: { startTime: '10:00', endTime: '12:00', type: 'SOFT' },
        applyTo: 'FUTURE_JOBS',
      })
      expect(applied.status, JSON.stringify(applied.body)).toBe(200)
      const after = await seriesJobs(admin, series.id)
      // 4 January is before today (11 January): left alone; 11 January is ASSIGNED: left alone.
      expect(after.map((j) => [j.occurrenceDate, j.title, j.priority, j.earliestStart, j.status])).toEqual([
        ['2027-01-04', 'Clean', 'NORMAL', '2027-01-04T09:00:00.000Z', 'CREATED'],
        ['2027-01-11', 'Clean', 'NORMAL', '2027-01-11T09:00:00.000Z', 'ASSIGNED'],
        ['2027-01-18', 'Deep clean', 'HIGH', '2027-01-18T10:00:00.000Z', 'CREATED'],
        ['2027-01-25', 'Deep clean', 'HIGH', '2027-01-25T10:00:00.000Z', 'CREATED'],
        ['2027-02-01', 'Deep clean', 'HIGH', '2027-02-01T10:00:00.000Z', 'CREATED'],
      ])
      const events = (await outboxEvents(t.database.db, organisationId)).slice(eventsBefore)
      expect(events.map((e) => e.event)).toEqual(['JOB_UPDATED', 'JOB_UPDATED', 'JOB_UPDATED'])
      // The whole template is applied: the title changed earlier (for future occurrences) comes along.
      expect(events[0]!.data.changes).toEqual({
        title: { previous: 'Clean', current: 'Deep clean' },
        priority: { previous: 'NORMAL', current: 'HIGH' },
        timeWindowType: { previous: 'HARD', current: 'SOFT' },
        earliestStart: { previous: '2027-01-18T09:00:00.000Z', current: '2027-01-18T10:00:00.000Z' },
        latestEnd: { previous: '2027-01-18T11:00:00.000Z', current: '2027-01-18T12:00:00.000Z' },
      })
      expect(Object.keys(events[2]!.data.changes as object)).not.toContain('title')
    })

    it('skips an occurrence (its CREATED job cancelled, never made again), refusing an ASSIGNED one', async () => {
      const { admin, organisationId } = await tenant()
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Clean' },
          rrule: 'FREQ=WEEKLY;BYDAY=MO',
          startDate: '2027-01-04',
        })
      ).body.data.series
      const jobs = await seriesJobs(admin, series.id)
      const skipped = await admin.post(`/job-series/${series.id}/occurrences/2027-01-11/skip`)
      expect(skipped.status, JSON.stringify(skipped.body)).toBe(200)
      expect(skipped.body.data.occurrence).toEqual({
        date: '2027-01-11',
        movedTo: null,
        skipped: true,
        jobId: jobs[1]!.id,
      })
      expect((await admin.get(`/jobs/${jobs[1]!.id}`)).body.data.job.status).toBe('CANCELLED')
      expect(await t.app.series.generateAll()).toBe(0)
      // One beyond the horizon, skipped before it is made, is never made.
      expect((await admin.post(`/job-series/${series.id}/occurrences/2027-02-08/skip`)).status).toBe(200)
      now = MONDAY + 14 * DAY
      await t.app.series.generateAll()
      const dates = (await seriesJobs(admin, series.id)).map((j) => j.occurrenceDate)
      expect(dates).not.toContain('2027-02-08')
      const detail = (await admin.get(`/job-series/${series.id}`)).body.data.series
      expect(
        detail.nextOccurrences.map((o: { date: string; skipped: boolean }) => [o.date, o.skipped]),
      ).toEqual([
        ['2027-01-18', false],
        ['2027-01-25', false],
        ['2027-02-01', false],
        ['2027-02-08', true],
        ['2027-02-15', false],
      ])

      await setJobState(t.database.db, organisationId, jobs[2]!.id, { status: 'ASSIGNED' })
      const refused = await admin.post(`/job-series/${series.id}/occurrences/2027-01-18/skip`)
      expect(refused.status).toBe(422)
      expect(refused.body.code).toBe('OCCURRENCE_DISPATCHED')
      const notOne = await admin.post(`/job-series/${series.id}/occurrences/2027-01-19/skip`)
      expect(notOne.status).toBe(404)
      expect(notOne.body.code).toBe('OCCURRENCE_NOT_FOUND')
    })

    it('moves an occurrence, generated or not, keeping its occurrenceDate', async () => {
      const { admin, organisationId } = await tenant()
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Clean' },
          rrule: 'FREQ=WEEKLY;BYDAY=MO',
          startDate: '2027-01-04',
          window: NINE_TO_ELEVEN,
        })
      ).body.data.series
      const jobs = await seriesJobs(admin, series.id)
      const moved = await admin.post(`/job-series/${series.id}/occurrences/2027-01-11/move`, {
        date: '2027-01-13',
        window: { startTime: '14:00', endTime: '15:00', type: 'SOFT' },
      })
      expect(moved.status, JSON.stringify(moved.body)).toBe(200)
      expect(moved.body.data.occurrence).toEqual({
        date: '2027-01-11',
        movedTo: '2027-01-13',
        skipped: false,
        jobId: jobs[1]!.id,
      })
      expect((await admin.get(`/jobs/${jobs[1]!.id}`)).body.data.job).toMatchObject({
        occurrenceDate: '2027-01-11',
        earliestStart: '2027-01-13T14:00:00.000Z',
        latestEnd: '2027-01-13T15:00:00.000Z',
        timeWindowType: 'SOFT',
      })
      // Not generated yet (beyond the horizon), moved into it: made at once, on its new date.
      const early = await admin.post(`/job-series/${series.id}/occurrences/2027-03-01/move`, {
        date: '2027-01-06',
      })
      expect(early.status, JSON.stringify(early.body)).toBe(200)
      const made = (await admin.get(`/jobs/${early.body.data.occurrence.jobId}`)).body.data.job
      expect(made).toMatchObject({ occurrenceDate: '2027-03-01', earliestStart: '2027-01-06T09:00:00.000Z' })
      const events = await outboxEvents(t.database.db, organisationId)
      expect(events.filter((e) => e.event === 'JOB_UPDATED')).toHaveLength(1)

      await setJobState(t.database.db, organisationId, jobs[2]!.id, { status: 'IN_PROGRESS' })
      const refused = await admin.post(`/job-series/${series.id}/occurrences/2027-01-18/move`, {
        date: '2027-01-19',
      })
      expect(refused.status).toBe(422)
      expect(refused.body.code).toBe('OCCURRENCE_DISPATCHED')
      expect(
        (await admin.post(`/job-series/${series.id}/occurrences/2027-01-12/move`, { date: '2027-01-19' }))
          .status,
      ).toBe(404)
    })

    it('ends a series: no occurrence after lastDate, its later CREATED jobs cancelled', async () => {
      const { admin, organisationId } = await tenant()
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Clean' },
          rrule: 'FREQ=WEEKLY;BYDAY=MO',
          startDate: '2027-01-04',
        })
      ).body.data.series
      const jobs = await seriesJobs(admin, series.id)
      await setJobState(t.database.db, organisationId, jobs[3]!.id, { status: 'ASSIGNED' })
      const ended = await admin.post(`/job-series/${series.id}/end`, { lastDate: '2027-01-11' })
      expect(ended.status, JSON.stringify(ended.body)).toBe(200)
      expect(ended.body.data.series.endDate).toBe('2027-01-11')
      expect(ended.body.data.series.nextOccurrences.map((o: { date: string }) => o.date)).toEqual([
        '2027-01-04',
        '2027-01-11',
      ])
      expect((await seriesJobs(admin, series.id)).map((j) => j.status)).toEqual([
        'CREATED',
        'CREATED',
        'CANCELLED',
        'ASSIGNED',
      ])
      const cancelled = (await outboxEvents(t.database.db, organisationId)).filter(
        (e) => e.event === 'JOB_CANCELLED',
      )
      expect(cancelled.map((e) => e.data.reason)).toEqual(['The series ended on 2027-01-11'])
      now = MONDAY + 28 * DAY
      await t.app.series.generateAll()
      expect(await seriesJobs(admin, series.id)).toHaveLength(4)
      expect((await admin.post(`/job-series/${series.id}/end`, { lastDate: '2027-01-01' })).status).toBe(400)
    })

    it.each([
      ['FREQ=HOURLY', 'FREQ must be'],
      ['FREQ=WEEKLY;BYHOUR=9', 'BYHOUR is not allowed'],
      ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1', 'BYSETPOS is not allowed'],
      ['DTSTART:20270101T000000Z;FREQ=DAILY', 'not NAME=VALUE'],
      ['FREQ=DAILY;DTSTART=20270101', 'DTSTART is not allowed'],
      ['FREQ=WEEKLY;BYDAY=2TU', 'only allowed with FREQ=MONTHLY'],
      ['FREQ=DAILY;COUNT=2;UNTIL=20270201', 'COUNT and UNTIL'],
      ['FREQ=DAILY;UNTIL=20270201T000000Z', 'UNTIL is a date'],
      ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 'no occurrence'],
      ['FREQ=DAILY;UNTIL=20261231', 'no occurrence'],
      ['nonsense', 'not NAME=VALUE'],
    ])('refuses the rule %s with 400 naming /body/rrule', async (rrule, words) => {
      const { admin } = await tenant()
      const refused = await admin.post('/job-series', { job: { title: 'X' }, rrule, startDate: '2027-01-04' })
      expect(refused.status).toBe(400)
      expect(refused.body.code).toBe('VALIDATION_ERROR')
      expect(refused.body.details).toEqual([{ path: '/body/rrule', message: expect.stringContaining(words) }])
      expect((await admin.get('/job-series')).body.data.series).toEqual([])
    })

    it('a tag or depot a live series uses cannot be deleted; once the series ends it can', async () => {
      const { admin, organisationId } = await tenant()
      const tag = await makeTag(t.database.db, organisationId, 'Legionella')
      const depot = await makeLocation(t.database.db, organisationId, { timezone: 'Europe/London' })
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Water check', locationId: depot.id, tagIds: [tag.id] },
          rrule: 'FREQ=WEEKLY;BYDAY=MO',
          startDate: '2026-01-05',
        })
      ).body.data.series
      // Its jobs deleted, only the series still refers to them: the generator would make no more jobs.
      for (const job of await seriesJobs(admin, series.id)) {
        expect((await admin.delete(`/jobs/${job.id}`)).status).toBe(200)
      }
      const refused = await admin.delete(`/tags/${tag.id}`)
      expect(refused.status).toBe(409)
      expect(refused.body).toMatchObject({ code: 'IN_USE' })
      expect(refused.body.error).toContain('used by 1 job series;')
      const depotRefused = await admin.delete(`/locations/${depot.id}`)
      expect(depotRefused.status).toBe(409)
      expect(depotRefused.body.error).toContain('Location is used by 1 job series;')

      expect((await admin.post(`/job-series/${series.id}/end`, { lastDate: '2026-01-05' })).status).toBe(200)
      expect((await admin.delete(`/tags/${tag.id}`)).status).toBe(200)
      expect((await admin.delete(`/locations/${depot.id}`)).status).toBe(200)
    })

    it("checks the template as POST /jobs does, naming /body/job/…, and the window's order", async () => {
      const { admin } = await tenant()
      const base = { rrule: 'FREQ=DAILY', startDate: '2027-01-04' }
      const cases: [unknown, string][] = [
        [{ ...base, job: { title: 'X', customerId: 'nope' } }, '/body/job/customerId'],
        [{ ...base, job: { title: 'X', jobLatitude: 53.4 } }, '/body/job/jobLongitude'],
        [{ ...base, job: { title: 'X', tagIds: ['nope'] } }, '/body/job/tagIds/0'],
        [{ ...base, job: { title: 'X', earliestStart: '2027-01-04T09:00:00Z' } }, '/body/job/earliestStart'],
        [{ ...base, job: { title: '' } }, '/body/job/title'],
        [
          { ...base, job: { title: 'X' }, window: { startTime: '11:00', endTime: '09:00', type: 'HARD' } },
          '/body/window/endTime',
        ],
      ]
      for (const [body, path] of cases) {
        const refused = await admin.post('/job-series', body)
        expect(refused.status, path).toBe(400)
        expect(
          refused.body.details.map((d: { path: string }) => d.path),
          path,
        ).toContain(path)
      }
    })

    it("lists an organisation's series newest first, and another organisation's are not found", async () => {
      const mine = await tenant()
      const theirs = await tenant()
      const ids: string[] = []
      for (const title of ['A', 'B', 'C']) {
        const created = await mine.admin.post('/job-series', {
          job: { title },
          rrule: 'FREQ=MONTHLY;BYMONTHDAY=1',
          startDate: '2027-01-04',
        })
        ids.push(created.body.data.series.id)
      }
      const page = await mine.admin.get('/job-series?limit=2')
      expect(page.status).toBe(200)
      expect(page.body.data.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 })
      expect(page.body.data.series.map((s: { job: { title: string } }) => s.job.title)).toEqual(['C', 'B'])
      expect(page.body.data.series[0].ruleText).toBe('every month on the 1st')
      expect((await theirs.admin.get('/job-series')).body.data.series).toEqual([])

      const id = ids[0]
      for (const response of [
        await theirs.admin.get(`/job-series/${id}`),
        await theirs.admin.patch(`/job-series/${id}`, { job: { title: 'Mine now' } }),
        await theirs.admin.post(`/job-series/${id}/end`, { lastDate: '2027-02-01' }),
        await theirs.admin.post(`/job-series/${id}/occurrences/2027-02-01/skip`),
        await theirs.admin.post(`/job-series/${id}/occurrences/2027-02-01/move`, { date: '2027-01-30' }),
        await theirs.admin.get(`/job-series/${id}/jobs`),
      ]) {
        expect(response.status).toBe(404)
        expect(response.body.code).toBe('NOT_FOUND')
      }
      expect((await mine.admin.get(`/job-series/${id}`)).body.data.series.job.title).toBe('A')
    })

    it('lists the next date of each series, skipped occurrences passed over and moved ones on their new date', async () => {
      const { admin } = await tenant()
      const weekly = (
        await admin.post('/job-series', {
          job: { title: 'Weekly' },
          rrule: 'FREQ=WEEKLY;BYDAY=MO,TH',
          startDate: '2027-01-01',
          window: NINE_TO_ELEVEN,
        })
      ).body.data.series
      const once = (
        await admin.post('/job-series', {
          job: { title: 'Once' },
          rrule: 'FREQ=DAILY;COUNT=1',
          startDate: '2027-01-05',
        })
      ).body.data.series
      const nextDates = async () =>
        Object.fromEntries(
          (
            (await admin.get('/job-series')).body.data.series as {
              job: { title: string }
              nextDate: string | null
            }[]
          ).map((s) => [s.job.title, s.nextDate]),
        )
      // Today is Monday 2027-01-04: the weekly series' next is today, the one-off's tomorrow.
      expect(await nextDates()).toEqual({ Weekly: '2027-01-04', Once: '2027-01-05' })
      expect((await admin.post(`/job-series/${weekly.id}/occurrences/2027-01-04/skip`)).status).toBe(200)
      expect(
        (await admin.post(`/job-series/${weekly.id}/occurrences/2027-01-07/move`, { date: '2027-01-09' }))
          .status,
      ).toBe(200)
      expect(await nextDates()).toEqual({ Weekly: '2027-01-09', Once: '2027-01-05' })
      now = MONDAY + 2 * DAY
      expect(await nextDates()).toEqual({ Weekly: '2027-01-09', Once: null })
      expect(once.id).toBeTruthy()
    })

    it("lists a series' generated jobs with their status, latest occurrence first, deleted ones left out", async () => {
      const { admin, organisationId } = await tenant()
      const series = (
        await admin.post('/job-series', {
          job: { title: 'Gutter check' },
          rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4',
          startDate: '2027-01-04',
          window: NINE_TO_ELEVEN,
        })
      ).body.data.series
      const other = (
        await admin.post('/job-series', {
          job: { title: 'Other' },
          rrule: 'FREQ=DAILY;COUNT=2',
          startDate: '2027-01-04',
        })
      ).body.data.series
      const made = await seriesJobs(admin, series.id)
      await setJobState(t.database.db, organisationId, made[1]!.id, { status: 'ASSIGNED' })
      expect((await admin.delete(`/jobs/${made[0]!.id}`)).status).toBe(200)
      const page = await admin.get(`/job-series/${series.id}/jobs?limit=2`)
      expect(page.status, JSON.stringify(page.body)).toBe(200)
      expect(page.body.data.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 })
      expect(page.body.data.jobs).toEqual([
        {
          id: made[3]!.id,
          number: expect.stringMatching(/^J-\d+$/),
          title: 'Gutter check',
          status: 'CREATED',
          occurrenceDate: '2027-01-25',
          earliestStart: '2027-01-25T09:00:00.000Z',
          latestEnd: '2027-01-25T11:00:00.000Z',
          timeWindowType: 'HARD',
        },
        expect.objectContaining({ id: made[2]!.id, occurrenceDate: '2027-01-18' }),
      ])
      const second = await admin.get(`/job-series/${series.id}/jobs?limit=2&page=2`)
      expect(second.body.data.jobs.map((j: JobShape) => [j.occurrenceDate, j.status])).toEqual([
        ['2027-01-11', 'ASSIGNED'],
      ])
      expect((await admin.get(`/job-series/${other.id}/jobs`)).body.data.pagination.total).toBe(2)
      const missing = await admin.get('/job-series/nope/jobs')
      expect(missing.status).toBe(404)
      expect(missing.body.code).toBe('NOT_FOUND')
      expect((await admin.get(`/job-series/${series.id}/jobs?limit=0`)).status).toBe(400)
    })
  })
}
