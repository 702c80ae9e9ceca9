// Schemas of absences (team members away) and of one-off shift changes on a date (issue 30 §3).
import { type Static, Type } from '@sinclair/typebox'
import { CalendarDay, DateTime, Envelope, EXAMPLE_ID, Id, Nullable, TimeOfDay } from '../../http/schemas.js'

export const MAX_ABSENCE_DAYS = 366

export const AbsenceReason = Type.Union(
  [Type.Literal('HOLIDAY'), Type.Literal('SICK'), Type.Literal('TRAINING'), Type.Literal('OTHER')],
  { description: 'Why the worker is away' },
)

export const CreateAbsenceBody = Type.Object(
  {
    startDate: CalendarDay('First day away, YYYY-MM-DD, in the calendar of the depot of each shift'),
    endDate: CalendarDay(
      `Last day away (inclusive), on or after startDate, at most ${MAX_ABSENCE_DAYS} days on`,
    ),
    reason: AbsenceReason,
    startTime: Type.Optional(
      Type.String({
        ...TimeOfDay,
        description: 'HH:MM: away for part of one day only (startDate = endDate); send endTime too',
      }),
    ),
    endTime: Type.Optional(Type.String({ ...TimeOfDay, description: 'HH:MM, after startTime' })),
    note: Type.Optional(Type.String({ maxLength: 500, description: 'Shown to dispatchers' })),
  },
  {
    additionalProperties: false,
    examples: [
      { startDate: '2026-12-21', endDate: '2026-12-24', reason: 'HOLIDAY' },
      {
        startDate: '2026-12-02',
        endDate: '2026-12-02',
        reason: 'OTHER',
        startTime: '09:00',
        endTime: '11:30',
        note: 'Dentist',
      },
    ],
  },
)
export type CreateAbsenceBody = Static<typeof CreateAbsenceBody>

export const Absence = Type.Object(
  {
    id: Id,
    userId: Id,
    user: Type.Object({ id: Id, name: Type.String() }),
    startDate: Type.String({ format: 'date' }),
    endDate: Type.String({ format: 'date' }),
    reason: AbsenceReason,
    startTime: Nullable(Type.String({ ...TimeOfDay, description: 'Null: whole days' })),
    endTime: Nullable(TimeOfDay),
    note: Nullable(Type.String()),
    createdAt: DateTime,
  },
  { title: 'Absence' },
)
export type Absence = Static<typeof Absence>

const DateRange = {
  from: Type.Optional(CalendarDay('Only absences ending on or after this date')),
  to: Type.Optional(CalendarDay('Only absences starting on or before this date')),
}

export const AbsenceListQuery = Type.Object(DateRange, { additionalProperties: false })
export type AbsenceListQuery = Static<typeof AbsenceListQuery>

export const AllAbsencesQuery = Type.Object(
  {
    ...DateRange,
    locationId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Only workers with a shift at this depot' }),
    ),
  },
  { additionalProperties: false },
)
export type AllAbsencesQuery = Static<typeof AllAbsencesQuery>

export const AbsenceParams = Type.Object(
  {
    id: Type.String({ description: 'The team member', examples: [EXAMPLE_ID] }),
    absenceId: Type.String({ description: 'The absence', examples: [EXAMPLE_ID] }),
  },
  { additionalProperties: false },
)

export const AbsenceResponse = Envelope(Type.Object({ absence: Absence }), 'The absence')
export const AbsenceListResponse = Envelope(
  Type.Object({ absences: Type.Array(Absence, { description: 'By startDate, then startTime' }) }),
  'Absences touching the date range',
)
export const DeletedAbsenceResponse = Envelope(
  Type.Object({ absence: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The absence was removed: the worker is expected on those dates again',
)

export const ShiftDateParams = Type.Object(
  {
    id: Type.String({ description: 'The shift template', examples: [EXAMPLE_ID] }),
    date: CalendarDay("A date on the shift's weekday"),
  },
  { additionalProperties: false },
)

export const PutShiftDateBody = Type.Object(
  {
    startTime: Type.Optional(TimeOfDay),
    endTime: Type.Optional(Type.String({ ...TimeOfDay, description: 'HH:MM, after startTime (same day)' })),
    off: Type.Optional(Type.Boolean({ description: 'true: no shift that date (send no times)' })),
  },
  {
    additionalProperties: false,
    description: 'Either other hours ({ startTime, endTime }) or no shift ({ off: true })',
    examples: [{ startTime: '10:00', endTime: '14:00' }, { off: true }],
  },
)
export type PutShiftDateBody = Static<typeof PutShiftDateBody>

export const ShiftDateChange = Type.Object(
  {
    id: Id,
    shiftId: Id,
    date: Type.String({ format: 'date' }),
    off: Type.Boolean({ description: 'No shift that date' }),
    startTime: Nullable(Type.String({ ...TimeOfDay, description: 'The hours that date; null when off' })),
    endTime: Nullable(TimeOfDay),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'ShiftDateChange' },
)
export type ShiftDateChange = Static<typeof ShiftDateChange>

export const ShiftDateListQuery = Type.Object(
  {
    from: Type.Optional(CalendarDay('Only changes on or after this date')),
    to: Type.Optional(CalendarDay('Only changes on or before this date')),
  },
  { additionalProperties: false },
)
export type ShiftDateListQuery = Static<typeof ShiftDateListQuery>

export const ShiftDateChangeResponse = Envelope(Type.Object({ change: ShiftDateChange }), 'The change')
export const ShiftDateChangeListResponse = Envelope(
  Type.Object({ changes: Type.Array(ShiftDateChange, { description: 'By date' }) }),
  "The shift's one-off changes in the range",
)
export const DeletedShiftDateChangeResponse = Envelope(
  Type.Object({ change: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The change was removed: the weekly pattern holds on that date again',
)
