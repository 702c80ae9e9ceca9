// The live day's contract: the positions a phone sends while its worker is on shift, and the
// dispatcher's view of every shift of a day with each remaining stop's eta and late risk.
import { type Static, Type } from '@sinclair/typebox'
import {
  CalendarDay,
  DateTime,
  DateTimeInput,
  Envelope,
  Id,
  Latitude,
  LatitudeString,
  Longitude,
  LongitudeString,
  Nullable,
  NullableObject,
  TimeWindowType,
  WorkerColour,
} from '../../http/schemas.js'
import { EtaRisk } from '../events/schemas.js'

const Closed = { additionalProperties: false } as const

export const PositionBody = Type.Object(
  {
    positions: Type.Array(
      Type.Object(
        {
          latitude: Latitude,
          longitude: Longitude,
          accuracy: Type.Optional(
            Nullable(Type.Number({ minimum: 0, maximum: 100_000, description: 'Metres (Geolocation API)' })),
          ),
          recordedAt: Type.String({
            ...DateTimeInput,
            description: 'When the device took the fix: not in the future, not older than 24 hours',
          }),
        },
        Closed,
      ),
      { minItems: 1, maxItems: 100, description: '1 to 100 fixes, any order (stored in recorded order)' },
    ),
  },
  Closed,
)
export type PositionBody = Static<typeof PositionBody>

export const PositionResponse = Envelope(
  Type.Object({ accepted: Type.Integer({ description: 'How many positions were stored' }) }, Closed),
  'The positions were stored',
)

export const LiveQuery = Type.Object(
  {
    date: CalendarDay('YYYY-MM-DD: the day, on the clock of each shift’s depot'),
    locationId: Type.Optional(Type.String({ description: 'Only the shifts of this depot' })),
  },
  Closed,
)

const LiveStop = Type.Object(
  {
    jobId: Id,
    title: Type.String(),
    scheduledStart: Nullable(DateTime),
    earliestStart: Nullable(DateTime),
    latestEnd: Nullable(DateTime),
    timeWindowType: TimeWindowType,
    eta: Type.String({ ...DateTime, description: 'Predicted arrival' }),
    expectedStart: Type.String({ ...DateTime, description: 'Predicted start of the work (window, breaks)' }),
    expectedEnd: DateTime,
    risk: EtaRisk,
  },
  Closed,
)

export const LiveShift = Type.Object(
  {
    shiftId: Id,
    date: Type.String({ description: 'The calendar date the shift lands on' }),
    start: DateTime,
    end: DateTime,
    locationId: Id,
    worker: Type.Object({ id: Id, name: Type.String(), colour: WorkerColour }, Closed),
    vehicle: Type.Object({ id: Id, name: Type.String() }, Closed),
    lastPosition: NullableObject(
      Type.Object(
        {
          latitude: LatitudeString,
          longitude: LongitudeString,
          accuracy: Nullable(Type.Number({ description: 'Metres' })),
          recordedAt: DateTime,
        },
        { ...Closed, description: 'The latest of the last 24 hours, however old (see recordedAt)' },
      ),
    ),
    currentJob: NullableObject(
      Type.Object(
        {
          id: Id,
          title: Type.String(),
          startedAt: Nullable(DateTime),
          expectedEnd: Type.String({
            ...DateTime,
            description: 'startedAt + service duration, or now if overdue',
          }),
        },
        Closed,
      ),
    ),
    stops: Type.Array(LiveStop, { description: 'The ASSIGNED jobs still to visit, in visiting order' }),
    predictedEnd: Type.String({ ...DateTime, description: 'When the route is expected to end' }),
    overtimeMinutes: Type.Integer({ description: 'How far past the shift’s end (0 when it ends in time)' }),
  },
  { ...Closed, title: 'LiveShift' },
)
export type LiveShift = Static<typeof LiveShift>

export const LiveResponse = Envelope(
  Type.Object({ date: Type.String(), shifts: Type.Array(LiveShift) }, Closed),
  'Every shift of the day, predicted from now',
)
