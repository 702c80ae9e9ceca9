// Request bodies of the admin shift routes. Responses reuse the public Shift schema.
import { type Static, Type } from '@sinclair/typebox'
import { DateTime, DayOfWeek, Envelope, errorResponses, Id, TimeOfDay } from '../../http/schemas.js'

const ReferenceId = (what: string) =>
  Type.String({ minLength: 1, maxLength: 200, description: `The ${what}; must exist in your organisation` })

const BreakInput = Type.Object(
  {
    startTime: TimeOfDay,
    endTime: Type.String({ ...TimeOfDay, description: 'HH:MM, after startTime' }),
    isPaid: Type.Boolean(),
  },
  { additionalProperties: false },
)

const BREAK_RULES =
  'Each break lies within [startTime, endTime] of the shift, ends after it starts, and overlaps no ' +
  'other break (one may start when another ends).'
const MAX_BREAKS = 20

const EndTime = Type.String({ ...TimeOfDay, description: 'HH:MM, after startTime (same day)' })

export const CreateShiftBody = Type.Object(
  {
    userId: ReferenceId('worker'),
    locationId: ReferenceId('depot'),
    vehicleId: ReferenceId('vehicle'),
    day: DayOfWeek,
    startTime: TimeOfDay,
    endTime: EndTime,
    isGenerated: Type.Optional(
      Type.Boolean({ default: false, description: 'Made by a schedule generator rather than by hand' }),
    ),
    breaks: Type.Optional(Type.Array(BreakInput, { maxItems: MAX_BREAKS, description: BREAK_RULES })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        userId: '0190f5c2-8d4e-7b1a-9c3d-2e4f6a8b0c1d',
        locationId: '0190f5c2-8d4e-7b1a-9c3d-2e4f6a8b0c1e',
        vehicleId: '0190f5c2-8d4e-7b1a-9c3d-2e4f6a8b0c1f',
        day: 'MONDAY',
        startTime: '08:00',
        endTime: '16:30',
        breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
      },
    ],
  },
)
export type CreateShiftBody = Static<typeof CreateShiftBody>

export const UpdateShiftBody = Type.Object(
  {
    userId: Type.Optional(ReferenceId('worker')),
    locationId: Type.Optional(ReferenceId('depot')),
    vehicleId: Type.Optional(ReferenceId('vehicle')),
    day: Type.Optional(DayOfWeek),
    startTime: Type.Optional(TimeOfDay),
    endTime: Type.Optional(EndTime),
    isGenerated: Type.Optional(Type.Boolean()),
    breaks: Type.Optional(
      Type.Array(BreakInput, {
        maxItems: MAX_BREAKS,
        description:
          `Replaces every break of the shift. ${BREAK_RULES} The merged shift is checked: ` +
          'changing startTime or endTime without sending breaks keeps the current breaks, which must still fit.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ endTime: '17:00' }] },
)
export type UpdateShiftBody = Static<typeof UpdateShiftBody>

export const DeletedShiftResponse = Envelope(
  Type.Object({ shift: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The shift and its breaks were deleted',
)

export const SHIFT_IN_USE_ERROR = errorResponses([
  'IN_USE',
  'Jobs that are not deleted are planned on this shift',
])

export const SHIFT_WORKER_IN_USE_ERROR = errorResponses([
  'SHIFT_IN_USE',
  'userId cannot change while jobs on the shift are ASSIGNED or IN_PROGRESS; the message names them',
])
