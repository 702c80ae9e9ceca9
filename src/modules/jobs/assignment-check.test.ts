// Assignment checks (issue 30 §1): POST /jobs/:id/assign refuses a visit the optimiser's rules call
// infeasible (outside the shift or in a break, overlapping another visit with the drive between them,
// a tag the van lacks, over its capacity, the worker away, outside a HARD window) with a 422 naming the
// rule, and writes nothing; soft problems are listed by POST /jobs/:id/assignment-check and accepted.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeCapacityDimension,
  makeLocation,
  makeShift,
  makeTag,
  makeUser,
  makeVehicle,
} from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

// 2026-12-07 is a Monday; London is on UTC in December, so local times read as UTC.
const MONDAY = '2026-12-07'
const at = (hhmm: string, date = MONDAY) => `${date}T${hhmm}:00.000Z`
// The depot, and a customer about 10 km north of it (≈ 13 km by road at 40 km/h: about 20 minutes).
const DEPOT = { jobLatitude: 53.4808, jobLongitude: -2.2426 }
const NORTH = { jobLatitude: 53.5708, jobLongitude: -2.2426 }

for (const dialect of DIALECTS) {
  describe(`${dialect}: assignment checks`, () => {
    let t: TestContext
    let now = Date.parse('2026-12-01T09:00:00.000Z')
    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
    })
    afterAll(() => t.close())

    /** Tom works Mondays 08:00–17:00 with lunch 12:00–12:30, in Van T (Gas safe; 10 boxes). */
    async function setup() {
      now = Date.parse('2026-12-01T09:00:00.000Z')
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, { name: 'Salford', isPrimary: true })
      const gas = await makeTag(db, org, 'Gas safe')
      const ladder = await makeTag(db, org, 'Long ladder')
      const boxes = await makeCapacityDimension(db, org, 'boxes', 'boxes')
      const tom = await makeUser(db, org, { name: 'Tom' })
      const van = await makeVehicle(db, org, depot.id, {
        name: 'Van T',
        tagIds: [gas.id],
        capacities: [{ dimensionId: boxes.id, maxValue: 10 }],
      })
      const shift = await makeShift(
        db,
        org,
        { userId: tom.id, locationId: depot.id, vehicleId: van.id },
        {
          startTime: '08:00',
          endTime: '17:00',
          breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
        },
      )
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const job = async (title: string, fields: Record<string, unknown> = DEPOT) => {
        const created = await api.post('/jobs', { title, serviceDuration: 1800, ...fields })
        expect(created.status, created.body.error).toBe(201)
        return created.body.data.job as { id: string; number: string; updatedAt: string }
      }
      const body = (from: string, to: string, date = MONDAY) => ({
        userId: tom.id,
        shiftId: shift.id,
        scheduledStart: at(from, date),
        scheduledEnd: at(to, date),
      })
      const assign = (id: string, payload: Record<string, unknown>) =>
        admin.post(`/jobs/${id}/assign`, payload)
      const check = (id: string, payload: Record<string, unknown>) =>
        admin.post(`/jobs/${id}/assignment-check`, payload)
      const events = async () => {
        const { rows } = await sql<{
          n: number | string
        }>`select count(*) as n from outbox_events where organisation_id = ${org}`.execute(db)
        return Number(rows[0]?.n)
      }
      return {
        tenant,
        db,
        org,
        depot,
        gas,
        ladder,
        boxes,
        tom,
        van,
        shift,
        admin,
        api,
        job,
        body,
        assign,
        check,
        events,
      }
    }

    it("refuses a visit after the shift's end with 422 OUTSIDE_SHIFT, changing nothing and recording no event", async () => {
      const s = await setup()
      const job = await s.job('Boiler service')
      const before = await s.events()
      const late = await s.assign(job.id, s.body('19:15', '20:00'))
      expect([late.status, late.body.code]).toEqual([422, 'OUTSIDE_SHIFT'])
      expect(late.body.error).toBe("Tom's shift ends 17:00; this visit starts 19:15")
      const after = (await s.api.get(`/jobs/${job.id}`)).body.data.job
      expect([after.status, after.assignedUserId, after.updatedAt]).toEqual(['CREATED', null, job.updatedAt])
      expect(await s.events()).toBe(before)

      const early = await s.assign(job.id, s.body('06:30', '07:00'))
      expect([early.status, early.body.code]).toEqual([422, 'OUTSIDE_SHIFT'])
      const tuesday = await s.assign(job.id, s.body('10:00', '10:30', '2026-12-08'))
      expect([tuesday.status, tuesday.body.code]).toEqual([422, 'OUTSIDE_SHIFT'])
      expect(tuesday.body.error).toContain('Tuesday 2026-12-08')
      expect((await s.assign(job.id, s.body('16:00', '16:30'))).status).toBe(200)
    })

    it('refuses a visit that starts in, or runs into, the lunch break (OUTSIDE_SHIFT)', async () => {
      const s = await setup()
      const job = await s.job('Radiator')
      const inBreak = await s.assign(job.id, s.body('12:10', '12:40'))
      expect([inBreak.status, inBreak.body.code]).toEqual([422, 'OUTSIDE_SHIFT'])
      expect(inBreak.body.error).toContain('during Tom')
      const intoBreak = await s.assign(job.id, s.body('11:45', '12:15'))
      expect([intoBreak.status, intoBreak.body.code]).toEqual([422, 'OUTSIDE_SHIFT'])
      expect(intoBreak.body.error).toContain('runs into')
      expect((await s.assign(job.id, s.body('12:30', '13:00'))).status).toBe(200)
    })

    it('refuses a visit Tom cannot reach after the previous one, driving included, or that makes him late for the next (OVERLAP)', async () => {
      const s = await setup()
      const first = await s.job('Boiler service')
      expect((await s.assign(first.id, s.body('09:00', '10:00'))).status).toBe(200)
      const north = await s.job('Leaking tap', NORTH)
      // 10:05 leaves five minutes for a twenty-minute drive.
      const tooSoon = await s.assign(north.id, s.body('10:05', '10:35'))
      expect([tooSoon.status, tooSoon.body.code]).toEqual([422, 'OVERLAP'])
      expect(tooSoon.body.error).toMatch(
        new RegExp(
          `^Tom is at ${first.number} “Boiler service” until 10:00, \\d+ min drive away, so this visit starts \\d+ min too early$`,
        ),
      )
      const short = Number(/starts (\d+) min too early/.exec(tooSoon.body.error)?.[1])
      expect(short).toBeGreaterThan(10)
      expect(short).toBeLessThan(25)
      // Plain overlap at the same place: no drive to count.
      const same = await s.job('Second boiler')
      const overlapping = await s.assign(same.id, s.body('09:30', '10:30'))
      expect([overlapping.status, overlapping.body.code]).toEqual([422, 'OVERLAP'])
      expect(overlapping.body.error).toBe(
        `Tom is at ${first.number} “Boiler service” until 10:00 so this visit starts 30 min too early`,
      )
      // Before the first visit, but ending too late to drive back for it.
      const before = await s.assign(north.id, s.body('08:30', '08:55'))
      expect([before.status, before.body.code]).toEqual([422, 'OVERLAP'])
      expect(before.body.error).toContain(`must be at ${first.number} “Boiler service” by 09:00`)

      expect((await s.assign(north.id, s.body('10:30', '11:00'))).status).toBe(200)
      // Sending a job's own slot again is never an overlap with itself.
      const again = await s.assign(first.id, s.body('09:00', '10:00'))
      expect(again.status, again.body.error).toBe(200)
    })

    it('refuses a job whose tag the van lacks (SKILL_MISSING) and one over its capacity (CAPACITY_EXCEEDED)', async () => {
      const s = await setup()
      const high = await s.job('Gutter')
      expect((await s.admin.put(`/jobs/${high.id}/tags`, { tagIds: [s.ladder.id] })).status).toBe(200)
      const skill = await s.assign(high.id, s.body('09:00', '09:30'))
      expect([skill.status, skill.body.code]).toEqual([422, 'SKILL_MISSING'])
      expect(skill.body.error).toBe("The job needs Long ladder; Van T (Tom's vehicle) lacks it")
      const gas = await s.job('Gas check')
      expect((await s.admin.put(`/jobs/${gas.id}/tags`, { tagIds: [s.gas.id] })).status).toBe(200)
      expect((await s.assign(gas.id, s.body('09:00', '09:30'))).status).toBe(200)

      const demand = (id: string, value: number) =>
        s.admin.put(`/jobs/${id}/demands`, {
          demands: [{ capacityDimensionId: s.boxes.id, requiredValue: value }],
        })
      const big = await s.job('Delivery A')
      await demand(big.id, 6)
      expect((await s.assign(big.id, s.body('10:00', '10:30'))).status).toBe(200)
      const more = await s.job('Delivery B')
      await demand(more.id, 5)
      const full = await s.assign(more.id, s.body('14:00', '14:30'))
      expect([full.status, full.body.code]).toEqual([422, 'CAPACITY_EXCEEDED'])
      expect(full.body.error).toBe('Van T would carry 11 boxes that day with this job (5); it holds 10')
      await demand(more.id, 4)
      expect((await s.assign(more.id, s.body('14:00', '14:30'))).status).toBe(200)
    })

    it('refuses an absent worker (WORKER_ABSENT) and a HARD window (OUTSIDE_TIME_WINDOW), as before', async () => {
      const s = await setup()
      const away = await s.admin.post(`/team/users/${s.tom.id}/absences`, {
        startDate: MONDAY,
        endDate: MONDAY,
        reason: 'SICK',
      })
      expect(away.status, away.body.error).toBe(201)
      const job = await s.job('Boiler')
      const absent = await s.assign(job.id, s.body('09:00', '09:30'))
      expect([absent.status, absent.body.code]).toEqual([422, 'WORKER_ABSENT'])
      const listed = await s.check(job.id, s.body('09:00', '09:30'))
      expect(listed.body.data.check.problems.map((p: { code: string }) => p.code)).toEqual(['WORKER_ABSENT'])

      const windowed = await s.job('Morning only', {
        ...DEPOT,
        timeWindowType: 'HARD',
        earliestStart: at('08:00', '2026-12-14'),
        latestEnd: at('10:00', '2026-12-14'),
      })
      const outside = await s.assign(windowed.id, s.body('10:00', '10:30', '2026-12-14'))
      expect([outside.status, outside.body.code]).toEqual([422, 'OUTSIDE_TIME_WINDOW'])
      // The check words it in the depot's time for the board; moved to the next day (the week view),
      // the window's date is said once.
      const checked = await s.check(windowed.id, s.body('09:00', '09:30', '2026-12-15'))
      expect(checked.body.data.check.problems[0]).toEqual({
        code: 'OUTSIDE_TIME_WINDOW',
        severity: 'HARD',
        message: 'The window 2026-12-14 08:00–10:00 must be kept; this visit ends 09:30',
      })
    })

    it('lists soft problems, hard first, and lets assign accept the soft ones', async () => {
      const s = await setup()
      const soft = await s.job('Afternoon, ideally', {
        ...DEPOT,
        timeWindowType: 'SOFT',
        earliestStart: at('13:00'),
        latestEnd: at('15:00'),
      })
      const fine = await s.check(soft.id, s.body('13:00', '13:30'))
      expect(fine.status, fine.body.error).toBe(200)
      expect(fine.body).toEqual({ data: { check: { problems: [] } }, message: expect.any(String) })

      const missed = await s.check(soft.id, s.body('15:00', '15:30'))
      expect(missed.body.data.check.problems).toEqual([
        {
          code: 'SOFT_WINDOW_MISSED',
          severity: 'SOFT',
          message: 'The customer asked for 13:00–15:00; this visit ends 15:30',
        },
      ])
      const overtime = await s.check(soft.id, s.body('16:30', '17:15'))
      expect(overtime.body.data.check.problems.map((p: { code: string }) => p.code)).toEqual([
        'SOFT_WINDOW_MISSED',
        'OVERTIME',
      ])
      expect(overtime.body.data.check.problems[1].message).toMatch(
        /^Tom's shift ends 17:00; this visit ends 17:15, back at the start 17:1\d$/,
      )
      const late = await s.check(soft.id, s.body('19:15', '20:00'))
      now = Date.parse(at('21:00'))
      const past = await s.check(soft.id, s.body('19:15', '20:00'))
      expect(
        past.body.data.check.problems.map((p: { code: string; severity: string }) => [p.code, p.severity]),
      ).toEqual([
        ['OUTSIDE_SHIFT', 'HARD'],
        ['SOFT_WINDOW_MISSED', 'SOFT'],
        ['IN_THE_PAST', 'SOFT'],
      ])
      expect(late.body.data.check.problems).toHaveLength(2)
      now = Date.parse(at('08:00'))

      // The first visit of the day 20 minutes from the depot at 08:05: leaving before the shift starts.
      const north = await s.job('Early call', NORTH)
      const early = await s.check(north.id, s.body('08:05', '08:35'))
      expect(early.body.data.check.problems.map((p: { code: string }) => p.code)).toEqual(['OVERTIME'])
      expect(early.body.data.check.problems[0].message).toMatch(/before the shift starts 08:00$/)

      const taken = await s.assign(soft.id, s.body('16:30', '17:15'))
      expect(taken.status, taken.body.error).toBe(200)
      expect(taken.body.data.job.status).toBe('ASSIGNED')
      now = Date.parse(at('18:00'))
      expect((await s.assign(north.id, s.body('08:05', '08:35'))).status).toBe(200)
    })

    it('checks a worker without a shift against their other visits only', async () => {
      const s = await setup()
      const other = await s.job('On no shift')
      const noShift = (from: string, to: string) => ({
        userId: s.tom.id,
        scheduledStart: at(from, '2026-12-09'),
        scheduledEnd: at(to, '2026-12-09'),
      })
      expect((await s.assign(other.id, noShift('19:00', '20:00'))).status).toBe(200)
      const north = await s.job('Far away', NORTH)
      const clash = await s.assign(north.id, noShift('20:05', '20:30'))
      expect([clash.status, clash.body.code]).toEqual([422, 'OVERLAP'])
      expect(clash.body.error).toContain(`${other.number}`)
      const later = await s.check(north.id, noShift('21:00', '21:30'))
      expect(later.body.data.check.problems).toEqual([])
    })

    it('writes nothing when checking, and keeps organisations apart (404 for a job, 400 for a user or shift)', async () => {
      const s = await setup()
      const job = await s.job('Boiler')
      const before = await s.events()
      const checked = await s.check(job.id, s.body('19:15', '20:00'))
      expect(checked.status).toBe(200)
      expect(checked.body.data.check.problems[0]).toEqual({
        code: 'OUTSIDE_SHIFT',
        severity: 'HARD',
        message: "Tom's shift ends 17:00; this visit starts 19:15",
      })
      const fine = await s.check(job.id, s.body('09:00', '09:30'))
      expect(fine.body.data.check.problems).toEqual([])
      expect(await s.events()).toBe(before)
      const after = (await s.api.get(`/jobs/${job.id}`)).body.data.job
      expect([after.status, after.updatedAt]).toEqual(['CREATED', job.updatedAt])

      const other = await setup()
      const theirs = await other.job('Not yours')
      expect((await s.check(theirs.id, s.body('09:00', '09:30'))).status).toBe(404)
      expect((await s.assign(theirs.id, s.body('09:00', '09:30'))).status).toBe(404)
      expect((await s.check('nope', s.body('09:00', '09:30'))).status).toBe(404)
      const foreignUser = await s.check(job.id, {
        ...s.body('09:00', '09:30'),
        userId: other.tom.id,
        shiftId: null,
      })
      expect([foreignUser.status, foreignUser.body.code]).toEqual([400, 'VALIDATION_ERROR'])
      expect(JSON.stringify(foreignUser.body.details)).toContain('/body/userId')
      const foreignShift = await s.check(job.id, { ...s.body('09:00', '09:30'), shiftId: other.shift.id })
      expect([foreignShift.status, foreignShift.body.code]).toEqual([400, 'VALIDATION_ERROR'])
      expect(JSON.stringify(foreignShift.body.details)).toContain('/body/shiftId')
      const backwards = await s.check(job.id, s.body('10:00', '09:00'))
      expect([backwards.status, backwards.body.code]).toEqual([400, 'VALIDATION_ERROR'])
      const unknownField = await s.check(job.id, { ...s.body('09:00', '09:30'), colour: 'red' })
      expect(unknownField.status).toBe(400)
      expect(await s.events()).toBe(before)
    })
  })
}
