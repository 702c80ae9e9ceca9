// The organisations of a benchmark dataset and everything but their jobs: depots, tags, capacity
// dimensions, vans with tags and capacities, a team with weekly shifts and breaks, and customers.
// Deterministic (one seeded PRNG), so both databases get the same data apart from nothing.
import { toDecimalString } from '../src/db/values.js'
import * as names from './dataset-names.js'

/** A row as both loaders take it: booleans as 0/1, datetimes as ISO strings, decimals as text. */
export type Row = Record<string, string | number | null>

export interface RowSink {
  insert(table: string, row: Row): void
  /** Resolves when buffered rows are written far enough for the generator to go on. */
  drain(): Promise<void>
}

export const DAY = 86_400_000
export const HOUR = 3_600_000
/**
 * Jobs are created over 60 days at every size; setup rows in the two months before. Sixty days, not
 * a year: even at 10k jobs the target date then has a full page of ASSIGNED jobs (≈ 28), so the
 * filtered scenario returns the same page at every size and its 1M ÷ 10k ratio compares like with
 * like (over a year, 10k gave 3 jobs on that day against 20 at 1M).
 */
export const DATA_END = Date.UTC(2026, 9, 1)
export const DATA_START = DATA_END - 60 * DAY
/** `targetDate` of the filtered scenario: a day about 60 % into the data. */
export const TARGET_DATE = new Date(DATA_START + Math.floor((0.6 * (DATA_END - DATA_START)) / DAY) * DAY)
  .toISOString()
  .slice(0, 10)
export const OTHER_ORGANISATIONS = 100
export const OTHER_ORGANISATION_JOBS = 300

export interface Random {
  (): number
  int(n: number): number
  pick<T>(items: readonly T[]): T
  /** `count` distinct items (fewer if there are not enough). */
  some<T>(items: readonly T[], count: number): T[]
}

export function createRandom(next: () => number): Random {
  const random = (() => next()) as Random
  random.int = (n) => Math.floor(next() * n)
  random.pick = (items) => items[Math.floor(next() * items.length)] as never
  random.some = (items, count) => {
    const pool = [...items]
    const chosen = []
    while (chosen.length < count && pool.length > 0) chosen.push(pool.splice(random.int(pool.length), 1)[0])
    return chosen as never
  }
  return random
}

const hex8 = (random: Random) => (random.int(0x1_0000_0000) >>> 0).toString(16).padStart(8, '0')

/** Like newId() (UUIDv7), but from a given instant and the seeded PRNG: time-ordered ids. */
export function idAt(ms: number, random: Random): string {
  const time = ms.toString(16).padStart(12, '0')
  const bits = hex8(random) + hex8(random) + hex8(random)
  const variant = (8 + (Number.parseInt(bits[3] as string, 16) & 3)).toString(16)
  return `${time.slice(0, 8)}-${time.slice(8)}-7${bits.slice(0, 3)}-${variant}${bits.slice(4, 7)}-${bits.slice(7, 19)}`
}

export const iso = (ms: number) => new Date(ms).toISOString()
export const decimal = (degrees: number) => toDecimalString(Math.round(degrees * 1e6) / 1e6)

export interface Place {
  id: string
  latitude: number
  longitude: number
}
export interface Worker {
  id: string
  shiftIds: string[]
}
/** What the job generator needs to know about an organisation. */
export interface OrganisationPlan {
  id: string
  depots: Place[]
  tagIds: string[]
  dimensionIds: string[]
  workers: Worker[]
  customers: (Place & { serviceDuration: number; timeWindowType: string })[]
}

interface OrganisationShape {
  name: string
  plan: string
  depots: number
  tags: number
  dimensions: number
  vehicles: number
  workers: number
  customers: number
}

export const TARGET_SHAPE: OrganisationShape = {
  name: 'Benchmark Heating & Plumbing Ltd',
  plan: 'PRO',
  depots: 2,
  tags: 8,
  dimensions: 3,
  vehicles: 20,
  workers: 30,
  customers: 5_000,
}

export function otherShape(index: number): OrganisationShape {
  const plans = ['PRO', 'ENTERPRISE', 'PRO', 'STARTER', 'PRO', 'FREE']
  return {
    name: `Other Services ${String(index).padStart(3, '0')} Ltd`,
    plan: plans[index % plans.length] as string,
    depots: 1,
    tags: 3,
    dimensions: 2,
    vehicles: 5,
    workers: 5,
    customers: 200,
  }
}

const DAYS = 'MONDAY TUESDAY WEDNESDAY THURSDAY FRIDAY SATURDAY SUNDAY'.split(' ')
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/** Writes one organisation and its resources (no jobs); returns what the job generator needs. */
export function writeOrganisation(
  sink: RowSink,
  random: Random,
  shape: OrganisationShape,
  createdAt: number,
): OrganisationPlan {
  let clock = createdAt
  const stamp = () => {
    clock += 1_000 + random.int(30_000)
    return { at: iso(clock), id: idAt(clock, random) }
  }
  const first = stamp()
  const organisationId = first.id
  sink.insert('organisations', {
    id: organisationId,
    name: shape.name,
    plan: shape.plan,
    created_at: first.at,
    updated_at: first.at,
  })
  const base = () => {
    const { at, id } = stamp()
    return { id, organisation_id: organisationId, created_at: at, updated_at: at }
  }
  const plan: OrganisationPlan = {
    id: organisationId,
    depots: [],
    tagIds: [],
    dimensionIds: [],
    workers: [],
    customers: [],
  }

  for (let d = 0; d < shape.depots; d++) {
    const town = names.TOWNS[(d * 7) % names.TOWNS.length]!
    const row = { ...base(), name: `${town.name} Depot`, code: `D${d + 1}`, is_primary: d === 0 ? 1 : 0 }
    sink.insert('locations', {
      ...row,
      description: d === 0 ? 'Head office and main stores' : 'Satellite stores',
      address: `Unit ${d + 3}, ${random.pick(names.STREETS)}, ${town.name} ${town.postcode} ${1 + random.int(9)}AB`,
      latitude: decimal(town.latitude),
      longitude: decimal(town.longitude),
      timezone: 'Europe/London',
      is_active: 1,
    })
    plan.depots.push({ id: row.id, latitude: town.latitude, longitude: town.longitude })
  }
  for (const name of names.TAG_NAMES.slice(0, shape.tags)) {
    const row = { ...base(), name }
    sink.insert('tags', row)
    plan.tagIds.push(row.id)
  }
  const dimensions = names.CAPACITY_DIMENSIONS.slice(0, shape.dimensions)
  for (const dimension of dimensions) {
    const row = { ...base(), key: dimension.key, label: dimension.label }
    sink.insert('capacity_dimensions', row)
    plan.dimensionIds.push(row.id)
  }

  const vehicles: { id: string; depot: Place }[] = []
  for (let v = 0; v < shape.vehicles; v++) {
    const depot = plan.depots[v % plan.depots.length]!
    const row = { ...base(), location_id: depot.id }
    const letters = () => String.fromCharCode(65 + random.int(26), 65 + random.int(26))
    const startsAway = random() < 0.4
    sink.insert('vehicles', {
      ...row,
      name: `${random.pick(names.VAN_MODELS)} ${letters()}${20 + random.int(5)} ${letters()}${String.fromCharCode(65 + random.int(26))}`,
      fixed_cost: 30 + random.int(40),
      cost_per_km: Math.round((0.1 + random() * 0.5) * 100) / 100,
      cost_per_hour: 20 + random.int(8),
      speed_factor: Math.round((0.85 + random() * 0.3) * 100) / 100,
      start_latitude: startsAway ? decimal(depot.latitude + (random() - 0.5) * 0.1) : null,
      start_longitude: startsAway ? decimal(depot.longitude + (random() - 0.5) * 0.1) : null,
      end_policy: random() < 0.7 ? 'RETURN_TO_ORIGIN' : 'END_AT_LAST_JOB',
      is_active: random() < 0.9 ? 1 : 0,
    })
    for (const tagId of random.some(plan.tagIds, 1 + random.int(3))) {
      sink.insert('vehicle_tags', { organisation_id: organisationId, vehicle_id: row.id, tag_id: tagId })
    }
    dimensions.forEach((dimension, i) => {
      const [low, high] = dimension.max
      sink.insert('vehicle_capacities', {
        organisation_id: organisationId,
        vehicle_id: row.id,
        capacity_dimension_id: plan.dimensionIds[i]!,
        max_value: low + random.int(high - low + 1),
      })
    })
    vehicles.push({ id: row.id, depot })
  }

  const people = new Set<string>()
  const person = () => {
    for (;;) {
      const name = `${random.pick(names.FIRST_NAMES)} ${random.pick(names.SURNAMES)}`
      if (!people.has(name)) {
        people.add(name)
        return name
      }
    }
  }
  const user = (role: string) => {
    const row = { ...base(), name: person(), role, is_active: 1 }
    const email = `${row.name.toLowerCase().replace(/[^a-z]+/g, '.')}@org${organisationId.slice(-6)}.example`
    sink.insert('users', { ...row, email })
    return row.id
  }
  user('ADMIN')
  for (let d = 0; d < Math.ceil(shape.workers / 10); d++) user('DISPATCHER')
  for (let w = 0; w < shape.workers; w++) {
    const worker: Worker = { id: user('WORKER'), shiftIds: [] }
    const vehicle = vehicles[w % vehicles.length]!
    const start = 7 * 60 + 30 * random.int(3)
    for (let day = w % 2; day < (w % 2) + 5; day++) {
      const shift = { ...base(), user_id: worker.id, location_id: vehicle.depot.id, vehicle_id: vehicle.id }
      sink.insert('shifts', {
        ...shift,
        day: DAYS[day]!,
        start_time: hhmm(start),
        end_time: hhmm(start + 8 * 60 + 30),
        is_generated: random() < 0.2 ? 1 : 0,
      })
      const breaks = [{ from: 12 * 60, to: 12 * 60 + 30, paid: 0 }]
      if (random() < 0.5) breaks.unshift({ from: 10 * 60, to: 10 * 60 + 15, paid: 1 })
      for (const { from, to, paid } of breaks) {
        const { id, at } = stamp()
        sink.insert('shift_breaks', {
          id,
          organisation_id: organisationId,
          shift_id: shift.id,
          start_time: hhmm(from),
          end_time: hhmm(to),
          is_paid: paid,
          created_at: at,
        })
      }
      worker.shiftIds.push(shift.id)
    }
    plan.workers.push(worker)
  }

  for (let c = 0; c < shape.customers; c++) {
    const town = random.pick(names.TOWNS)
    const business = random() < 0.25
    const surname = random.pick(names.SURNAMES)
    const name = business
      ? `${surname} ${random.pick(names.BUSINESS_KINDS)}`
      : `${random.pick(names.FIRST_NAMES)} ${surname}`
    const latitude = town.latitude + (random() - 0.5) * 0.06
    const longitude = town.longitude + (random() - 0.5) * 0.09
    const opens = business ? 7 * 60 + 30 * random.int(5) : 0
    const row = {
      ...base(),
      name,
      address: `${1 + random.int(240)} ${random.pick(names.STREETS)}, ${town.name} ${town.postcode} ${1 + random.int(9)}${String.fromCharCode(65 + random.int(26), 65 + random.int(26))}`,
      latitude: decimal(latitude),
      longitude: decimal(longitude),
      service_duration: 900 * (1 + random.int(4)),
      priority: random() < 0.1 ? 'HIGH' : random() < 0.1 ? 'LOW' : 'NORMAL',
      time_window_type: random() < 0.75 ? 'HARD' : 'SOFT',
      operational_start: hhmm(opens),
      operational_end: business ? hhmm(opens + 9 * 60) : '23:59',
    }
    sink.insert('customers', row)
    plan.customers.push({
      id: row.id,
      latitude,
      longitude,
      serviceDuration: row.service_duration,
      timeWindowType: row.time_window_type,
    })
  }
  return plan
}
