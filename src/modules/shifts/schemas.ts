import { type Static, Type } from '@sinclair/typebox'
import {
  ChangeFeedPagination,
  CursorQuery,
  DateTime,
  DayOfWeek,
  Envelope,
  Id,
  PageQuery,
  TimeOfDay,
  UpdatedSinceQuery,
} from '../../http/schemas.js'

const NamedRef = Type.Object({ id: Id, name: Type.String() })

export const ShiftBreak = Type.Object({
  id: Id,
  startTime: TimeOfDay,
  endTime: TimeOfDay,
  isPaid: Type.Boolean(),
})

export const Shift = Type.Object(
  {
    id: Id,
    userId: Type.String({ description: 'The worker' }),
    locationId: Id,
    vehicleId: Id,
    day: DayOfWeek,
    startTime: TimeOfDay,
    endTime: TimeOfDay,
    isGenerated: Type.Boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
    user: Type.Object({ id: Id, name: Type.String(), email: Type.String() }),
    location: NamedRef,
    vehicle: NamedRef,
    breaks: Type.Array(ShiftBreak, { description: 'Sorted by startTime' }),
  },
  { title: 'Shift' },
)
export type Shift = Static<typeof Shift>

export const ShiftListQuery = Type.Object(
  {
    ...PageQuery(50),
    ...CursorQuery,
    ...UpdatedSinceQuery,
    locationId: Type.Optional(Type.String({ maxLength: 200, description: 'Only shifts at this depot' })),
    userId: Type.Optional(Type.String({ maxLength: 200, description: 'Only shifts of this worker' })),
    day: Type.Optional(DayOfWeek),
  },
  { additionalProperties: false },
)
export type ShiftListQuery = Static<typeof ShiftListQuery>

export const ShiftListResponse = Envelope(
  Type.Object({ shifts: Type.Array(Shift), pagination: ChangeFeedPagination }),
  'A page of shifts',
)
export const ShiftResponse = Envelope(Type.Object({ shift: Shift }), 'The shift')
