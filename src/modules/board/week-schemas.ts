// The week view of the board: workers × seven days, each day's shifts (hours, or why not), jobs and
// capacity used, and the waiting jobs that fall due by the end of the week.
import { type Static, Type } from '@sinclair/typebox'
import {
  CalendarDay,
  DateTime,
  Envelope,
  Id,
  JobPriority,
  JobStatus,
  Nullable,
  NullableObject,
  TimeWindowType,
  WorkerColour,
} from '../../http/schemas.js'
import { AbsenceOfDay } from './schemas.js'

/** How many waiting jobs the week lists at most. */
export const WEEK_DUE_LIMIT = 200

export const WeekBoardQuery = Type.Object(
  {
    start: CalendarDay(
      'The first day of the week shown, YYYY-MM-DD (any weekday); the week is 7 days from it',
    ),
    locationId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'One depot: its shifts, their jobs, and the waiting jobs of that depot or of none',
      }),
    ),
  },
  { additionalProperties: false },
)
export type WeekBoardQuery = Static<typeof WeekBoardQuery>

const NamedRef = Type.Object({ id: Id, name: Type.String() })
const Worker = Type.Object({ id: Id, name: Type.String(), colour: WorkerColour })

const WeekShift = Type.Object({
  shiftId: Id,
  vehicle: NamedRef,
  locationId: Id,
  start: Type.String({ ...DateTime, description: 'The hours worked that day (the pattern’s when off)' }),
  end: DateTime,
  breaks: Type.Array(Type.Object({ start: DateTime, end: DateTime, isPaid: Type.Boolean() }), {
    description: 'Breaks, and part-day absences inside the shift (as unpaid breaks)',
  }),
  off: Type.Unsafe<'ABSENT' | 'SHIFT_OFF' | null>({
    type: ['string', 'null'],
    enum: ['ABSENT', 'SHIFT_OFF', null],
    description:
      'null: worked. ABSENT: the worker is away the whole shift (absence says why); SHIFT_OFF: cancelled that date',
  }),
  absence: NullableObject(AbsenceOfDay),
})

const WeekJob = Type.Object({
  id: Id,
  number: Type.String({ description: 'J-1042' }),
  title: Type.String(),
  status: JobStatus,
  priority: JobPriority,
  customer: NullableObject(NamedRef),
  locationId: Nullable(Id),
  serviceDuration: Type.Integer({ description: 'Seconds on site' }),
  timeWindowType: TimeWindowType,
  earliestStart: Nullable(DateTime),
  latestEnd: Nullable(DateTime),
  scheduledStart: Nullable(DateTime),
  scheduledEnd: Nullable(DateTime),
  assignedUserId: Nullable(Id),
  shiftId: Nullable(Id),
})
export type WeekJob = Static<typeof WeekJob>

const WeekDayCell = Type.Object({
  date: Type.String({ format: 'date' }),
  shifts: Type.Array(WeekShift, { description: 'The worker’s weekly shifts of that weekday, by start' }),
  absence: NullableObject(
    Type.Object(AbsenceOfDay.properties, {
      description: 'Set when the worker is away all day: every shift of the day is off for an absence',
    }),
  ),
  jobs: Type.Array(WeekJob, {
    description:
      'The worker’s jobs (not cancelled) whose visit starts that day in its shift’s depot zone, by start',
  }),
  minutesBooked: Type.Integer({ description: 'The scheduled minutes of those jobs' }),
  minutesAvailable: Type.Integer({
    description: 'The minutes of the shifts worked that day, breaks (and part-day absences) taken off',
  }),
})

const WeekWorker = Type.Object({
  user: Worker,
  days: Type.Array(WeekDayCell, { description: 'Seven, one per day of the week' }),
})

export const WeekBoard = Type.Object(
  {
    start: Type.String({ format: 'date' }),
    end: Type.String({ format: 'date', description: 'The last day shown (start + 6 days)' }),
    locationId: Nullable(Id),
    timezone: Type.String({
      description: 'The depot’s time zone, or without locationId the organisation’s (its primary depot’s)',
    }),
    days: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date' }),
        dayStart: Type.String({ ...DateTime, description: 'Midnight starting the date in `timezone`' }),
        dayEnd: Type.String({ ...DateTime, description: 'Midnight ending the date in `timezone`' }),
      }),
    ),
    workers: Type.Array(WeekWorker, {
      description: 'One per worker with a weekly shift (at the depot), by name',
    }),
    due: Type.Array(Type.Object({ ...WeekJob.properties, dueAt: DateTime }), {
      description:
        `Waiting (CREATED) jobs due by the end of the week — dueAt: latestEnd, else earliestStart — ` +
        `soonest first, overdue ones included; at most ${WEEK_DUE_LIMIT}. Jobs with no window have no due date.`,
    }),
    dueTruncated: Type.Boolean({
      description: `More than ${WEEK_DUE_LIMIT} jobs are due: the rest are left out`,
    }),
  },
  { title: 'WeekBoard' },
)
export type WeekBoard = Static<typeof WeekBoard>

export const WeekBoardResponse = Envelope(Type.Object({ week: WeekBoard }), 'The week view of the board')
