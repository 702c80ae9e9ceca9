// Booking windows (issue 32 §4): the body and answer of POST /availability, and the bookingToken field
// POST /jobs takes beside the job's own (jobs/routes.ts).
import { type Static, Type } from '@sinclair/typebox'
import { CalendarDay, DateTime, Envelope, Id, Latitude, Longitude } from '../../http/schemas.js'
import { CreateJobBody } from '../jobs/schemas.js'

/** The longest span one request may ask about, in days (dateFrom and dateTo included). */
export const MAX_AVAILABILITY_DAYS = 31

export const AvailabilityBody = Type.Object(
  {
    customerId: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'Where the job is: this customer of your organisation (its coordinates). Or `coordinates`',
      }),
    ),
    coordinates: Type.Optional(
      Type.Object(
        { latitude: Latitude, longitude: Longitude },
        { additionalProperties: false, description: 'Where the job is, when it has no customer' },
      ),
    ),
    serviceDuration: Type.Integer({ minimum: 60, maximum: 43_200, description: 'Seconds the visit lasts' }),
    tags: Type.Optional(
      Type.Array(Id, {
        maxItems: 20,
        uniqueItems: true,
        description: 'Tag ids the job needs: only workers whose vehicle has every one are offered',
      }),
    ),
    dateFrom: CalendarDay('First day asked about, in the depots’ calendar'),
    dateTo: CalendarDay(`Last day asked about (at most ${MAX_AVAILABILITY_DAYS} days after dateFrom)`),
    windowLength: Type.Integer({
      minimum: 900,
      maximum: 43_200,
      multipleOf: 300,
      description:
        'Seconds each arrival window lasts (7200: 08:00–10:00, 10:00–12:00, …), aligned from midnight in the depot’s time zone',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        customerId: '0193e2f4-5b7a-7c3d-9e1f-2a4b6c8d0e1f',
        serviceDuration: 3600,
        dateFrom: '2026-12-07',
        dateTo: '2026-12-20',
        windowLength: 7200,
      },
    ],
  },
)
export type AvailabilityBody = Static<typeof AvailabilityBody>

const BookingWindow = Type.Object({
  date: Type.String({ description: 'The day of the window in its depot’s calendar (YYYY-MM-DD)' }),
  windowStart: DateTime,
  windowEnd: DateTime,
  userId: Type.String({ description: 'The worker who would come (the cheapest one free in this window)' }),
  shiftId: Id,
  addedKm: Type.Number({
    description: 'Extra driving the visit adds to that worker’s day, km (one decimal)',
  }),
  addedMinutes: Type.Integer({ description: 'Extra driving the visit adds to that worker’s day, minutes' }),
  bookingToken: Type.String({
    description: 'Give it to POST /jobs within 10 minutes to book this window; single use',
  }),
  expiresAt: DateTime,
})

export const AvailabilityResponse = Envelope(
  Type.Object({ windows: Type.Array(BookingWindow) }),
  'The arrival windows in which some worker can take the job without breaking a HARD window or a shift ' +
    'already planned: one per window (the cheapest worker), ordered by date, then addedMinutes, then ' +
    'addedKm, then windowStart. Empty when nothing fits',
)

export const BOOKING_TOKEN_DESCRIPTION =
  'A bookingToken from POST /availability (additive, optional): books the job in that arrival window and ' +
  'assigns it to that worker, or 409 SLOT_TAKEN when the window is no longer free. The job gets a HARD ' +
  'window from the window’s start to its end plus serviceDuration; customerId or coordinates and ' +
  'serviceDuration are taken from the token (when given they must match it); earliestStart, latestEnd ' +
  'and timeWindowType may not be given with it. Expired (10 minutes): 410 BOOKING_EXPIRED'

/** POST /jobs's body: the job's fields, and optionally a bookingToken. */
export const CreateJobOrBookingBody = Type.Object(
  {
    ...CreateJobBody.properties,
    bookingToken: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: BOOKING_TOKEN_DESCRIPTION }),
    ),
  },
  { additionalProperties: false, examples: CreateJobBody.examples },
)
export type CreateJobOrBookingBody = Static<typeof CreateJobOrBookingBody>
