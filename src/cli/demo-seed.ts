// The demo organisation behind `fieldservice demo`: two depots, six vans, six workers with a week of
// shifts, 40 customers around Manchester and 150 jobs across the week containing `now`, in every
// status. A seeded PRNG and the fixed lists of demo-data.ts make it the same on every database (ids
// and dates aside); it is written in one transaction, so a crash never leaves half a demo.
import type { Kysely, Transaction } from 'kysely'
import { isPostgres } from '../db/database.js'
import { newId } from '../db/ids.js'
import type { Database, DayOfWeek, JobPriority, JobStatus, TimeWindowType } from '../db/types.js'
import { toDecimalString } from '../db/values.js'
import { seedCustomer } from '../modules/customers/service.js'
import { seedJob } from '../modules/jobs/service.js'
import { seedLocation } from '../modules/locations/service.js'
import { findOrganisationByName, seedOrganisation } from '../modules/organisations/service.js'
import { seedUser } from '../modules/organisations/users-service.js'
import { seedCapacityDimension, seedTag } from '../modules/reference-data/service.js'
import { seedAbsence } from '../modules/shifts/absences-service.js'
import { seedShift } from '../modules/shifts/service.js'
import { seedVehicle } from '../modules/vehicles/service.js'
import * as demo from './demo-data.js'
import { DAY, HOUR, iso, isoOrNull, localTime, MINUTE, minutesOf, seededRandom } from './demo-time.js'

const COUNTED_TABLES = ['locations', 'vehicles', 'users', 'shifts', 'customers', 'jobs'] as const
export type DemoCounts = Record<(typeof COUNTED_TABLES)[number], number>

export interface DemoSeedResult {
  organisationId: string
  created: boolean
  counts: DemoCounts
}

const DAYS = 'MONDAY TUESDAY WEDNESDAY THURSDAY FRIDAY SATURDAY SUNDAY'.split(' ') as DayOfWeek[]
const MAX_JOBS_PER_SHIFT = 5
/** Jobs left unscheduled (CREATED or CANCELLED) however full the shifts are. */
const MIN_UNSCHEDULED_JOBS = 18
const POSTCODE_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ'.split('')
const decimal = (degrees: number) => toDecimalString(Math.round(degrees * 1e6) / 1e6)

/** Seeds the demo organisation, or reports the one already there (found by its name). */
export async function seedDemoOrganisation(db: Kysely<Database>, now = new Date()): Promise<DemoSeedResult> {
  // SERIALIZABLE on PostgreSQL: of two `demo` commands racing, one creates and the other fails
  // rather than both creating. SQLite has one writer at a time anyway.
  let transaction = db.transaction()
  if (isPostgres(db)) transaction = transaction.setIsolationLevel('serializable')
  return transaction.execute(async (trx) => {
    const existing = await findOrganisationByName(trx, demo.DEMO_ORGANISATION.name)
    const organisationId = existing?.id ?? (await new DemoSeeder(trx, now).seed())
    return { organisationId, created: !existing, counts: await countRows(trx, organisationId) }
  })
}

async function countRows(trx: Transaction<Database>, organisationId: string): Promise<DemoCounts> {
  const counts = Object.fromEntries(COUNTED_TABLES.map((table) => [table, 0])) as DemoCounts
  for (const table of COUNTED_TABLES) {
    const row = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .where('organisation_id', '=', organisationId)
      .executeTakeFirstOrThrow()
    counts[table] = Number(row.total)
  }
  return counts
}

type Place = { id: string; latitude: string; longitude: string }
type Worker = (typeof demo.WORKERS)[number]
interface ShiftPlan {
  id: string
  userId: string
  worker: Worker
  dayIndex: number
  pattern: demo.ShiftPattern
}
interface CustomerPlan extends Place {
  depot: number
  opens: number
  closes: number
  priority: JobPriority
  time_window_type: TimeWindowType
}
interface JobPlan {
  template: demo.JobTemplate
  customer: CustomerPlan | null
  place: Place
  shift: ShiftPlan | null
  /** The visit (scheduled jobs) and the promised window, all as epoch milliseconds. */
  start: number
  end: number
  earliest: number | null
  latest: number | null
  status: JobStatus
  startedAt: number | null
  completedAt: number | null
}

const NOT_STARTED = { startedAt: null, completedAt: null }
function setState(plan: JobPlan, status: JobStatus, startedAt: number | null, completedAt: number | null) {
  Object.assign(plan, { status, startedAt, completedAt })
}

class DemoSeeder {
  private readonly random = seededRandom(demo.DEMO_RANDOM_SEED)
  private readonly now: number
  /** Monday 00:00 UTC of the week containing `now`. */
  private readonly weekStart: number
  /** Setup rows (organisation, depots, vans, team, customers) date from four months back. */
  private clock: number
  private organisationId = ''
  private readonly depots: (Place & { timezone: string; address: string })[] = []
  private readonly tagIds = new Map<string, string>()
  private readonly dimensionIds = new Map<string, string>()
  private readonly vehicleIds: string[] = []
  private readonly shifts: ShiftPlan[] = []
  private readonly customers: CustomerPlan[] = []

  constructor(
    private readonly trx: Transaction<Database>,
    now: Date,
  ) {
    this.now = now.getTime()
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
    this.weekStart = today - ((now.getUTCDay() + 6) % 7) * DAY
    this.clock = this.now - 120 * DAY
  }

  async seed(): Promise<string> {
    const { organisation_id: _, ...organisation } = this.rowBase()
    this.organisationId = organisation.id
    await seedOrganisation(this.trx, { ...organisation, ...demo.DEMO_ORGANISATION })
    for (const depot of demo.DEPOTS) {
      const row = { ...this.rowBase(), ...depot }
      await seedLocation(this.trx, row)
      this.depots.push(row)
    }
    for (const name of demo.TAGS) {
      const row = { ...this.rowBase(), name }
      await seedTag(this.trx, row)
      this.tagIds.set(name, row.id)
    }
    for (const dimension of demo.CAPACITY_DIMENSIONS) {
      const row = { ...this.rowBase(), ...dimension }
      await seedCapacityDimension(this.trx, row)
      this.dimensionIds.set(dimension.key, row.id)
    }
    await this.insertVehicles()
    await this.insertTeamAndShifts()
    await this.insertCustomers()
    await this.insertJobs()
    await this.insertHoliday()
    return this.organisationId
  }

  private readonly int = (min: number, max: number) => min + Math.floor(this.random() * (max - min + 1))
  private readonly pick = <T>(items: readonly T[]): T => items[this.int(0, items.length - 1)]!
  private readonly chance = (probability: number) => this.random() < probability

  /** Id, organisation and timestamps of the next setup row, minutes to hours after the last. */
  private rowBase() {
    this.clock += this.int(20, 300) * MINUTE + this.int(0, MINUTE - 1)
    const at = iso(this.clock)
    return { id: newId(this.clock), organisation_id: this.organisationId, created_at: at, updated_at: at }
  }

  private async insertVehicles() {
    for (const { depot, costs, start, tags, capacities, ...vehicle } of demo.VEHICLES) {
      const row = {
        ...this.rowBase(),
        location_id: this.depots[depot]!.id,
        name: vehicle.name,
        fixed_cost: costs.fixed,
        cost_per_km: costs.perKm,
        cost_per_hour: costs.perHour,
        speed_factor: costs.speedFactor,
        start_latitude: start && decimal(start[0]),
        start_longitude: start && decimal(start[1]),
        end_policy: vehicle.endPolicy,
        is_active: vehicle.isActive,
      }
      await seedVehicle(this.trx, row, {
        tagIds: tags.map((tag) => this.tagIds.get(tag)!),
        capacities: Object.entries(capacities).map(
          ([key, max]) => [this.dimensionIds.get(key)!, max] as const,
        ),
      })
      this.vehicleIds.push(row.id)
    }
  }

  private async insertTeamAndShifts() {
    const member = (name: string, role: 'DISPATCHER' | 'WORKER') => {
      const email = `${name.toLowerCase().replace(/\W+/g, '.')}@${demo.DEMO_EMAIL_DOMAIN}`
      return { ...this.rowBase(), name, email, role, is_active: true }
    }
    await seedUser(this.trx, member(demo.DISPATCHER.name, 'DISPATCHER'))
    for (const worker of demo.WORKERS) {
      const user = member(worker.name, 'WORKER')
      await seedUser(this.trx, user)
      for (let dayIndex = 0; dayIndex < 6; dayIndex++) {
        const pattern = dayIndex < 5 ? worker.weekday : worker.saturday
        if (!pattern) continue
        const shift = {
          ...this.rowBase(),
          user_id: user.id,
          location_id: this.depots[worker.depot]!.id,
          vehicle_id: this.vehicleIds[worker.vehicle]!,
          day: DAYS[dayIndex]!,
          start_time: pattern.start,
          end_time: pattern.end,
          is_generated: false,
        }
        const breaks = pattern.breaks.map(({ start, end, isPaid }) => {
          const { updated_at: _, ...base } = this.rowBase()
          return { ...base, shift_id: shift.id, start_time: start, end_time: end, is_paid: isPaid }
        })
        await seedShift(this.trx, shift, breaks)
        this.shifts.push({ id: shift.id, userId: user.id, worker, dayIndex, pattern })
      }
    }
  }

  /** One worker is on holiday all next week (Monday to Friday): the plan and the board leave them out. */
  private async insertHoliday() {
    const worker = demo.WORKERS.find((w) => w.name === demo.HOLIDAY_WORKER)
    const shift = this.shifts.find((s) => s.worker === worker)
    if (!shift) return
    const date = (days: number) => iso(this.weekStart + days * DAY).slice(0, 10)
    const { updated_at: _, ...base } = this.rowBase()
    await seedAbsence(this.trx, {
      ...base,
      user_id: shift.userId,
      start_date: date(7),
      end_date: date(11),
      start_time: null,
      end_time: null,
      reason: 'HOLIDAY',
      note: 'Family holiday',
    })
  }

  private async insertCustomers() {
    for (const [index, { name, kind }] of demo.CUSTOMERS.entries()) {
      const street = this.pick(demo.STREETS)
      const [opens = '00:00', closes = '23:59'] = this.pick(demo.OPERATIONAL_HOURS[kind]).split('-')
      const postcode = `${street.district} ${this.int(1, 9)}${this.pick(POSTCODE_LETTERS)}${this.pick(POSTCODE_LETTERS)}`
      const row = {
        ...this.rowBase(),
        name,
        address: `${this.int(1, 240)} ${street.street}, ${street.area}, ${street.town} ${postcode}`,
        latitude: decimal(street.latitude + (this.random() - 0.5) * 0.004),
        longitude: decimal(street.longitude + (this.random() - 0.5) * 0.006),
        service_duration: this.pick(demo.SERVICE_DURATIONS),
        priority: this.pick(demo.CUSTOMER_PRIORITIES[kind]),
        time_window_type: this.pick<TimeWindowType>(['HARD', 'HARD', 'SOFT']),
        operational_start: opens,
        operational_end: closes,
        ...demo.customerContact(name, kind, index),
      }
      await seedCustomer(this.trx, row)
      // Degrees of longitude are ~0.6 of a degree of latitude this far north.
      const distances = this.depots.map((d) =>
        Math.hypot(+d.latitude - +row.latitude, (+d.longitude - +row.longitude) * 0.6),
      )
      const depot = distances.indexOf(Math.min(...distances))
      this.customers.push({ ...row, depot, opens: minutesOf(opens), closes: minutesOf(closes) })
    }
  }

  private async insertJobs() {
    const scheduled = this.planScheduledJobs()
    this.settleStatuses(scheduled)
    const unscheduled = Array.from({ length: demo.DEMO_JOB_COUNT - scheduled.length }, (_, i) =>
      this.planUnscheduledJob(i),
    )
    for (const plan of [...scheduled, ...unscheduled]) await this.insertJob(plan)
  }

  /** Fills each shift from its start: travel, a visit, travel, a visit…, around the breaks. */
  private planScheduledJobs(): JobPlan[] {
    const plans: JobPlan[] = []
    for (const shift of this.shifts) {
      const { tags, capacities } = demo.VEHICLES[shift.worker.vehicle]!
      const fits = (t: demo.JobTemplate) =>
        (t.tags ?? []).every((tag) => tags.includes(tag)) &&
        Object.entries(t.demands ?? {}).every(
          ([key, value]) => value <= (capacities[key as demo.DemoDimension] ?? 0),
        )
      const [customerJobs, depotJobs] = [
        demo.JOB_TEMPLATES.filter(fits),
        demo.DEPOT_JOB_TEMPLATES.filter(fits),
      ]
      const breaks = shift.pattern.breaks.map((b) => [minutesOf(b.start), minutesOf(b.end)] as const)
      const end = minutesOf(shift.pattern.end)
      let cursor = minutesOf(shift.pattern.start) + this.int(3, 6) * 5
      for (let n = 0; n < MAX_JOBS_PER_SHIFT; n++) {
        const atDepot = this.chance(0.1)
        const template = this.pick(atDepot ? depotJobs : customerJobs)
        for (const [from, to] of breaks) if (cursor < to && cursor + template.minutes > from) cursor = to
        if (cursor + template.minutes > end - 15) break
        plans.push(this.scheduledPlan(shift, template, atDepot, cursor))
        cursor += template.minutes + this.int(3, 8) * 5
      }
    }
    while (plans.length > demo.DEMO_JOB_COUNT - MIN_UNSCHEDULED_JOBS)
      plans.splice(this.int(0, plans.length - 1), 1)
    return plans.sort((a, b) => a.start - b.start)
  }

  private scheduledPlan(
    shift: ShiftPlan,
    template: demo.JobTemplate,
    atDepot: boolean,
    start: number,
  ): JobPlan {
    const end = start + template.minutes
    // A customer near the depot whose opening hours cover the visit, failing that any open one.
    const open = this.customers.filter((c) => c.opens <= start && end <= c.closes)
    const nearby = open.filter((c) => c.depot === shift.worker.depot)
    const customer = atDepot
      ? null
      : this.pick(nearby.length > 0 ? nearby : open.length > 0 ? open : this.customers)
    // The promised window: whole hours around the visit, within the customer's opening hours.
    const opens = Math.max(customer?.opens ?? minutesOf(shift.pattern.start), 6 * 60)
    const closes = Math.min(customer?.closes ?? minutesOf(shift.pattern.end), 22 * 60)
    const earliest = Math.min(start, Math.max(opens, (Math.floor(start / 60) - this.int(0, 2)) * 60))
    const latest = Math.max(end, Math.min(closes, (Math.ceil(end / 60) + this.int(0, 2)) * 60))
    const depot = this.depots[shift.worker.depot]!
    const at = (minutes: number) => localTime(this.weekStart + shift.dayIndex * DAY, minutes, depot.timezone)
    const times = { start: at(start), end: at(end), earliest: at(earliest), latest: at(latest) }
    return {
      template,
      customer,
      place: customer ?? depot,
      shift,
      ...times,
      ...NOT_STARTED,
      status: 'ASSIGNED',
    }
  }

  /** Time decides each scheduled job's state: done, under way, or still to come. */
  private settleStatuses(plans: JobPlan[]) {
    for (const plan of plans) {
      const startedAt = plan.start + this.int(-2, 3) * 5 * MINUTE
      const completedAt =
        startedAt + Math.round(plan.template.minutes * 60 * (0.8 + this.random() * 0.5)) * 1000
      if (completedAt <= this.now) setState(plan, 'COMPLETED', startedAt, completedAt)
      else if (startedAt <= this.now) setState(plan, 'IN_PROGRESS', startedAt, null)
    }
    // Early on Monday, at night or on Sunday, time alone leaves a status out; keep all five to explore:
    // the week's first job done early, the latest finished one still open, the one before not started.
    const withStatus = (status: JobStatus) => plans.filter((p) => p.status === status)
    const first = plans[0]!
    if (withStatus('COMPLETED').length === 0) setState(first, 'COMPLETED', first.start, first.end)
    if (withStatus('IN_PROGRESS').length === 0) {
      const completed = withStatus('COMPLETED')
      const plan = completed.length > 1 ? completed.at(-1)! : (withStatus('ASSIGNED')[0] ?? plans.at(-1)!)
      setState(plan, 'IN_PROGRESS', plan.startedAt ?? plan.start, null)
    }
    if (withStatus('ASSIGNED').length === 0) setState(withStatus('COMPLETED').at(-1)!, 'ASSIGNED', null, null)
  }

  /** Not (or no longer) scheduled: a third cancelled, the rest waiting for dispatch. */
  private planUnscheduledJob(index: number): JobPlan {
    const status: JobStatus = index % 3 === 0 ? 'CANCELLED' : 'CREATED'
    const customer = this.pick(this.customers)
    const template = this.pick(demo.JOB_TEMPLATES)
    const day = this.weekStart + this.int(0, 6) * DAY
    const timezone = this.depots[customer.depot]!.timezone
    const [window = '', windowEnd = ''] = this.pick(demo.UNSCHEDULED_WINDOWS).split('-')
    let [from, to] = [
      Math.max(minutesOf(window), customer.opens),
      Math.min(minutesOf(windowEnd), customer.closes),
    ]
    if (to - from < template.minutes) [from, to] = [customer.opens, customer.closes]
    // Some only have a deadline: any time before Sunday evening.
    const deadlineOnly = status === 'CREATED' && index % 5 === 1
    const earliest = deadlineOnly ? null : localTime(day, from, timezone)
    const latest = deadlineOnly
      ? localTime(this.weekStart + 6 * DAY, 18 * 60, timezone)
      : localTime(day, to, timezone)
    const times = { start: earliest ?? day, end: latest, earliest, latest }
    return { template, customer, place: customer, shift: null, ...times, ...NOT_STARTED, status }
  }

  private async insertJob(plan: JobPlan) {
    const { template, customer, place, shift } = plan
    // Booked from two hours to ten days before the work; last touched by its latest event.
    const createdAt =
      Math.min(this.now, plan.earliest ?? plan.start) - this.int(2, 240) * HOUR - this.int(0, HOUR)
    const lastEvent = plan.completedAt ?? plan.startedAt ?? createdAt + this.int(0, 48) * HOUR
    const note = this.chance(0.35) ? ` ${this.pick(demo.ACCESS_NOTES)}` : ''
    const description = this.chance(0.1)
      ? null
      : `${demo.JOB_DESCRIPTIONS[template.title] ?? template.title}${note}`
    const priority = template.priority ?? (this.chance(0.1) ? 'HIGH' : (customer?.priority ?? 'NORMAL'))
    const windowType = this.chance(0.2) ? 'SOFT' : (customer?.time_window_type ?? 'SOFT')
    const id = newId(createdAt)
    const row = {
      id,
      organisation_id: this.organisationId,
      title: template.title,
      description,
      status: plan.status,
      priority,
      customer_id: customer?.id ?? null,
      location_id: customer ? null : place.id,
      job_latitude: place.latitude,
      job_longitude: place.longitude,
      // Work at a depot is at the depot's address; a customer's job at the customer's (null: theirs).
      address: customer ? null : (this.depots.find((depot) => depot.id === place.id)?.address ?? null),
      service_duration: template.minutes * 60,
      time_window_type: template.timeWindowType ?? windowType,
      earliest_start: isoOrNull(plan.earliest),
      latest_end: isoOrNull(plan.latest),
      scheduled_start: shift && iso(plan.start),
      scheduled_end: shift && iso(plan.end),
      assigned_user_id: shift?.userId ?? null,
      shift_id: shift?.id ?? null,
      started_at: isoOrNull(plan.startedAt),
      completed_at: isoOrNull(plan.completedAt),
      actual_duration:
        plan.completedAt === null || plan.startedAt === null
          ? null
          : (plan.completedAt - plan.startedAt) / 1000,
      created_at: iso(createdAt),
      updated_at: iso(Math.max(createdAt, Math.min(this.now, lastEvent))),
      deleted_at: null,
      // The demo's history was recorded as it happened.
      start_recorded_at: isoOrNull(plan.startedAt),
      complete_recorded_at: isoOrNull(plan.completedAt),
      en_route_at: null,
    }
    await seedJob(this.trx, row, {
      tagIds: (template.tags ?? []).map((tag) => this.tagIds.get(tag)!),
      demands: Object.entries(template.demands ?? {}).map(
        ([key, value]) => [this.dimensionIds.get(key)!, value] as const,
      ),
    })
  }
}
