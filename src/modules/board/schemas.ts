import { type Static, Type } from '@sinclair/typebox'
import {
  CalendarDay,
  DateTime,
  Envelope,
  Id,
  JobPriority,
  JobStatus,
  LatitudeString,
  LongitudeString,
  Nullable,
  NullableObject,
  TimeWindowType,
  VehicleEndPolicy,
  WorkerColour,
} from '../../http/schemas.js'
import { AbsenceReason } from '../shifts/absences-schemas.js'

export const BoardQuery = Type.Object(
  {
    date: CalendarDay(
      'The day, YYYY-MM-DD; each shift template of its weekday is placed on it in its depot’s time zone',
    ),
    locationId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'One depot: its shifts, and the unassigned jobs of that depot or of none',
      }),
    ),
  },
  { additionalProperties: false },
)
export type BoardQuery = Static<typeof BoardQuery>

const NamedRef = Type.Object({ id: Id, name: Type.String() })
const Worker = Type.Object({ id: Id, name: Type.String(), colour: WorkerColour })
const Point = Type.Object({ latitude: LatitudeString, longitude: LongitudeString })

const BoardDepot = Type.Object({
  id: Id,
  name: Type.String(),
  timezone: Type.String({ description: 'IANA time zone of the depot' }),
  ...Point.properties,
})

const TravelLeg = Type.Object({
  fromJobId: Nullable(Type.String({ description: 'Null: from the route’s origin' })),
  toJobId: Nullable(Type.String({ description: 'Null: back to the route’s origin (RETURN_TO_ORIGIN)' })),
  distanceMeters: Type.Integer({ description: 'Road distance as the optimiser estimates it' }),
  durationSeconds: Type.Integer({ description: 'Drive time at the vehicle’s speed factor' }),
})

/** An absence as a day sees it: whole (no times) or part of it, in the depot's wall clock. */
export const AbsenceOfDay = Type.Object({
  id: Id,
  reason: AbsenceReason,
  startTime: Nullable(Type.String({ description: 'HH:MM; null: the whole day' })),
  endTime: Nullable(Type.String()),
  note: Nullable(Type.String()),
})

const BoardRow = Type.Object({
  shiftId: Id,
  user: Worker,
  vehicle: NamedRef,
  locationId: Id,
  start: DateTime,
  end: DateTime,
  breaks: Type.Array(Type.Object({ start: DateTime, end: DateTime, isPaid: Type.Boolean() })),
  origin: Type.Object(Point.properties, {
    description: 'Where the route starts: the vehicle’s start position, else its depot',
  }),
  endPolicy: VehicleEndPolicy,
  legs: Type.Array(TravelLeg, {
    description:
      'Travel between consecutive stops in visiting order (scheduled start): the origin to the first, ' +
      'each stop to the next, and the last back to the origin when the vehicle returns; computed as a ' +
      'route plan counts travel (road times when the service has a routing server, else the ' +
      'organisation’s straight-line settings) ÷ the vehicle’s speed factor. Cancelled jobs are ' +
      'no stops; a job without coordinates has no leg.',
  }),
  totals: Type.Object(
    {
      distanceMeters: Type.Integer(),
      driveSeconds: Type.Integer(),
      overtimeSeconds: Type.Integer({
        description: 'How far the last visit’s end (plus the drive back) runs past the shift’s end',
      }),
    },
    { description: 'The sums of the legs, and the overtime of the day as scheduled' },
  ),
  absence: Type.Optional(
    Type.Object(AbsenceOfDay.properties, {
      description:
        'Only when the worker is away the whole shift (holiday, sick…): the row takes no work that day, ' +
        'and start/end are the weekly pattern’s hours. A part-day absence is in `partAbsences` instead.',
    }),
  ),
  partAbsences: Type.Array(AbsenceOfDay, {
    description:
      'Part-day absences of the date (depot wall-clock times): already taken out of the row, as an unpaid ' +
      'break inside the shift or a later start or earlier end at its edges; listed to say why.',
  }),
})

const BoardJob = Type.Object({
  id: Id,
  title: Type.String(),
  status: JobStatus,
  priority: JobPriority,
  customer: NullableObject(
    Type.Object({ ...NamedRef.properties, address: Type.String({ description: 'The customer’s address' }) }),
  ),
  locationId: Nullable(Id),
  latitude: Nullable(
    Type.String({ description: 'The job’s own position, else its customer’s; null: neither' }),
  ),
  ownPosition: Type.Boolean({
    description:
      'Whether the job has coordinates of its own that are not its customer’s (else it is at the ' +
      'customer’s address)',
  }),
  longitude: Nullable(Type.String()),
  serviceDuration: Type.Integer({ description: 'Seconds on site' }),
  timeWindowType: TimeWindowType,
  earliestStart: Nullable(DateTime),
  latestEnd: Nullable(DateTime),
  scheduledStart: Nullable(DateTime),
  scheduledEnd: Nullable(DateTime),
  assignedUserId: Nullable(Id),
  shiftId: Nullable(Id),
  tags: Type.Array(NamedRef),
  // Optional in the schema only so that the board's fixtures without it still compile; always sent.
  number: Type.Optional(Type.String({ description: 'J-1042: the number a customer quotes (always sent)' })),
  // Optional for the same reason; always sent.
  address: Type.Optional(
    Nullable(
      Type.String({ description: 'The job’s own address (migration 0028); null: its customer’s is shown' }),
    ),
  ),
})
export type BoardJob = Static<typeof BoardJob>

export const Board = Type.Object(
  {
    date: Type.String({ format: 'date' }),
    locationId: Nullable(Id),
    timezone: Type.String({
      description: 'The depot’s time zone, or without locationId the organisation’s (its primary depot’s)',
    }),
    dayStart: Type.String({ ...DateTime, description: 'Midnight starting the date in `timezone`' }),
    dayEnd: Type.String({ ...DateTime, description: 'Midnight ending the date in `timezone`' }),
    depots: Type.Array(BoardDepot, { description: 'The active depots shown (the one asked for, or all)' }),
    rows: Type.Array(BoardRow, { description: 'One per shift on the date, by start time' }),
    jobs: Type.Array(BoardJob, {
      description:
        'The jobs scheduled on a row that day (any status), then the CREATED jobs waiting for dispatch',
    }),
  },
  { title: 'Board' },
)
export type Board = Static<typeof Board>

export const BoardResponse = Envelope(Type.Object({ board: Board }), 'The dispatch board of the day')
