// Booking windows a customer can choose (issue 32 §4): POST /availability offers the arrival windows
// some worker can still take (slots.ts), each with a token held ten minutes; POST /jobs with a token
// books it — creates the job with the window as its HARD window and assigns it to that worker, through
// the jobs service and the job lifecycle (JOB_CREATED, JOB_ASSIGNED) — or answers 409 SLOT_TAKEN.
//
// Two customers racing for one slot: the booking transaction takes the shift's booking lock first
// (repository.lockShiftForBooking), then re-reads the worker's day and re-checks the window, and the
// assignment passes the manual assignment check (OVERLAP, OUTSIDE_SHIFT, …) on the day as committed.
// The second booking waits for the first to commit and finds the slot gone.
import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { newId } from '../../db/ids.js'
import type { Database, Executor } from '../../db/types.js'
import { AppError, guardExternalId, validationError } from '../../http/errors.js'
import { getCustomer } from '../customers/service.js'
import { assignJobIn } from '../jobs/dispatch-service.js'
import type { CreateJobBody } from '../jobs/schemas.js'
import { createJobIn, getJob } from '../jobs/service.js'
import { findTagsByIds } from '../reference-data/service.js'
import * as repository from './repository.js'
import { type AvailabilityBody, type CreateJobOrBookingBody, MAX_AVAILABILITY_DAYS } from './schemas.js'
import { findSlots, type Slot, type SlotRequest } from './slots.js'

export const HOLD_MS = 10 * 60 * 1000
const DAY_MS = 86_400_000

export interface BookingWindow {
  date: string
  windowStart: string
  windowEnd: string
  userId: string
  shiftId: string
  addedKm: number
  addedMinutes: number
  bookingToken: string
  expiresAt: string
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')
const iso = (ms: number) => new Date(ms).toISOString()

/** The days from `from` to `to` (YYYY-MM-DD), both included. */
function daysOf(from: string, to: string): string[] {
  const first = Date.parse(`${from}T00:00:00.000Z`)
  const last = Date.parse(`${to}T00:00:00.000Z`)
  if (last < first) throw validationError('/body/dateTo', 'must not be before dateFrom')
  if ((last - first) / DAY_MS + 1 > MAX_AVAILABILITY_DAYS)
    throw validationError('/body/dateTo', `must be at most ${MAX_AVAILABILITY_DAYS - 1} days after dateFrom`)
  const days: string[] = []
  for (let day = first; day <= last; day += DAY_MS) days.push(iso(day).slice(0, 10))
  return days
}

/** Where the job is: the customer's coordinates, or the body's. 400 names the field. */
async function positionOf(db: Executor, organisationId: string, body: AvailabilityBody) {
  if ((body.customerId === undefined) === (body.coordinates === undefined))
    throw validationError('/body/customerId', 'give exactly one of customerId and coordinates')
  if (body.coordinates) return { customerId: null, position: body.coordinates }
  const customer = await getCustomer(db, organisationId, body.customerId as string).catch((error) => {
    if (error instanceof AppError && error.code === 'NOT_FOUND')
      throw validationError(
        '/body/customerId',
        `customer ${body.customerId} does not exist in your organisation`,
      )
    throw error
  })
  return {
    customerId: customer.id,
    position: { latitude: Number(customer.latitude), longitude: Number(customer.longitude) },
  }
}

async function assertTagsExist(db: Executor, organisationId: string, tagIds: readonly string[]) {
  const found = new Set((await findTagsByIds(db, organisationId, tagIds)).map((tag) => tag.id))
  const missing = tagIds.findIndex((id) => !found.has(id))
  if (missing >= 0)
    throw validationError(
      `/body/tags/${missing}`,
      `tag ${tagIds[missing]} does not exist in your organisation`,
    )
}

/** The cheapest worker per window, ordered by date, then added minutes, then added km, then time. */
function cheapestPerWindow(slots: Slot[]): Slot[] {
  const best = new Map<number, Slot>()
  const cheaper = (a: Slot, b: Slot) =>
    a.addedSeconds - b.addedSeconds || a.addedMetres - b.addedMetres || a.shiftId.localeCompare(b.shiftId)
  for (const slot of slots) {
    const kept = best.get(slot.windowStart)
    if (!kept || cheaper(slot, kept) < 0) best.set(slot.windowStart, slot)
  }
  return [...best.values()].sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      Math.round(a.addedSeconds / 60) - Math.round(b.addedSeconds / 60) ||
      a.addedMetres - b.addedMetres ||
      a.windowStart - b.windowStart,
  )
}

/** POST /availability: the windows, each with a token held for ten minutes. */
export async function findAvailability(
  db: Kysely<Database>,
  organisationId: string,
  body: AvailabilityBody,
  now: number,
): Promise<BookingWindow[]> {
  const days = daysOf(body.dateFrom, body.dateTo)
  const { customerId, position } = await positionOf(db, organisationId, body)
  const tagIds = body.tags ?? []
  await assertTagsExist(db, organisationId, tagIds)
  const request: SlotRequest = {
    position,
    serviceSeconds: body.serviceDuration,
    tagIds,
    windowSeconds: body.windowLength,
  }
  const range = { from: days[0] as string, to: days[days.length - 1] as string }
  const windows = cheapestPerWindow(await findSlots(db, organisationId, range, request, now))

  const expiresAt = iso(now + HOLD_MS)
  const tokens = windows.map(() => `bk_${randomBytes(18).toString('base64url')}`)
  const holds = windows.map(
    (slot, index): repository.BookingHoldRow => ({
      id: newId(),
      organisation_id: organisationId,
      token_hash: hashOf(tokens[index] as string),
      shift_id: slot.shiftId,
      user_id: slot.userId,
      date: slot.date,
      window_start: iso(slot.windowStart),
      window_end: iso(slot.windowEnd),
      customer_id: customerId,
      latitude: String(position.latitude),
      longitude: String(position.longitude),
      service_duration: body.serviceDuration,
      tag_ids: JSON.stringify(tagIds),
      expires_at: expiresAt,
      used_at: null,
      created_at: iso(now),
    }),
  )
  await db.transaction().execute(async (trx) => {
    // A day's grace: an expired token still answers 410 (not "unknown") for a while.
    await repository.deleteExpiredHolds(trx, organisationId, iso(now - DAY_MS))
    await repository.insertHolds(trx, holds)
  })
  return windows.map((slot, index) => ({
    date: slot.date,
    windowStart: iso(slot.windowStart),
    windowEnd: iso(slot.windowEnd),
    userId: slot.userId,
    shiftId: slot.shiftId,
    addedKm: Math.round(slot.addedMetres / 100) / 10,
    addedMinutes: Math.round(slot.addedSeconds / 60),
    bookingToken: tokens[index] as string,
    expiresAt,
  }))
}

const INVALID_TOKEN = 'is not a booking token of your organisation that is still unused'

/** The job's fields a token decides, checked against what the body says. */
function bookedJobInput(body: CreateJobOrBookingBody, hold: repository.BookingHoldRow): CreateJobBody {
  const { bookingToken: _token, ...job } = body
  for (const field of ['earliestStart', 'latestEnd', 'timeWindowType'] as const) {
    if (job[field] !== undefined)
      throw validationError(
        `/body/${field}`,
        'may not be given with bookingToken: the booked window decides it',
      )
  }
  if (job.serviceDuration !== undefined && job.serviceDuration !== hold.service_duration)
    throw validationError(
      '/body/serviceDuration',
      `must be ${hold.service_duration}, as the bookingToken was issued for`,
    )
  if (job.customerId !== undefined && job.customerId !== hold.customer_id)
    throw validationError('/body/customerId', 'must be the customer the bookingToken was issued for')
  const latitude = hold.customer_id === null ? Number(hold.latitude) : null
  const longitude = hold.customer_id === null ? Number(hold.longitude) : null
  if (job.jobLatitude !== undefined && job.jobLatitude !== latitude)
    throw validationError('/body/jobLatitude', 'must be where the bookingToken was issued for')
  if (job.jobLongitude !== undefined && job.jobLongitude !== longitude)
    throw validationError('/body/jobLongitude', 'must be where the bookingToken was issued for')
  const windowEnd = Date.parse(hold.window_end) + hold.service_duration * 1000
  return {
    ...job,
    serviceDuration: hold.service_duration,
    timeWindowType: 'HARD',
    earliestStart: iso(Date.parse(hold.window_start)),
    latestEnd: iso(windowEnd),
    ...(hold.customer_id === null
      ? { jobLatitude: latitude, jobLongitude: longitude }
      : { customerId: hold.customer_id }),
  }
}

/** The assignment check's refusals: on a day that was free when offered, they mean someone took it. */
const TAKEN = new Set([
  'OUTSIDE_SHIFT',
  'OVERLAP',
  'OUTSIDE_TIME_WINDOW',
  'WORKER_ABSENT',
  'SKILL_MISSING',
  'CAPACITY_EXCEEDED',
])

function slotTaken(hold: repository.BookingHoldRow): AppError {
  return new AppError(
    'SLOT_TAKEN',
    `The window ${hold.window_start}–${hold.window_end} is no longer free on that worker's day; ask POST /availability again`,
  )
}

/** POST /jobs with a bookingToken: the job, created and assigned in the booked window. */
export async function bookJob(
  db: Kysely<Database>,
  organisationId: string,
  body: CreateJobOrBookingBody,
  now: number,
) {
  const hold = await repository.findHold(db, organisationId, hashOf(body.bookingToken as string))
  if (!hold || hold.used_at !== null) throw validationError('/body/bookingToken', INVALID_TOKEN)
  if (Date.parse(hold.expires_at) <= now)
    throw new AppError(
      'BOOKING_EXPIRED',
      `The bookingToken expired at ${hold.expires_at}; ask POST /availability again`,
    )
  const input = bookedJobInput(body, hold)
  const tagIds = JSON.parse(hold.tag_ids) as string[]
  return guardExternalId('jobs', 'job', input.externalId, () =>
    db.transaction().execute(async (trx) => {
      await repository.lockShiftForBooking(trx, hold.shift_id)
      if (!(await repository.useHold(trx, organisationId, hold.id, iso(now))))
        throw validationError('/body/bookingToken', INVALID_TOKEN)
      const request: SlotRequest = {
        position: { latitude: Number(hold.latitude), longitude: Number(hold.longitude) },
        serviceSeconds: hold.service_duration,
        tagIds,
        windowSeconds: (Date.parse(hold.window_end) - Date.parse(hold.window_start)) / 1000,
      }
      const slot = (
        await findSlots(trx, organisationId, { from: hold.date, to: hold.date }, request, now, hold.shift_id)
      ).find((s) => s.windowStart === Date.parse(hold.window_start))
      if (!slot) throw slotTaken(hold)
      const job = await createJobIn(trx, organisationId, input, { tagIds, demands: [] })
      try {
        await assignJobIn(
          trx,
          organisationId,
          job.id,
          {
            userId: hold.user_id,
            shiftId: hold.shift_id,
            scheduledStart: iso(slot.scheduledStart),
            scheduledEnd: iso(slot.scheduledStart + hold.service_duration * 1000),
          },
          { now },
        )
      } catch (error) {
        if (error instanceof AppError && TAKEN.has(error.code)) throw slotTaken(hold)
        throw error
      }
      return getJob(trx, organisationId, job.id)
    }),
  )
}
