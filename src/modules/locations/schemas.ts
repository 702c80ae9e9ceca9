import { type Static, Type } from '@sinclair/typebox'
import {
  ChangeFeedPagination,
  CursorQuery,
  DateTime,
  Envelope,
  Id,
  LatitudeString,
  LongitudeString,
  PageQuery,
  UpdatedSinceQuery,
} from '../../http/schemas.js'

export const Location = Type.Object(
  {
    id: Id,
    name: Type.String(),
    code: Type.String(),
    description: Type.String(),
    address: Type.String(),
    latitude: LatitudeString,
    longitude: LongitudeString,
    timezone: Type.String({ description: 'IANA time zone name', examples: ['Europe/London'] }),
    isPrimary: Type.Boolean(),
    isActive: Type.Boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'Location' },
)
export type Location = Static<typeof Location>

export const LocationListQuery = Type.Object(
  {
    ...PageQuery(50),
    ...CursorQuery,
    ...UpdatedSinceQuery,
    isActive: Type.Optional(Type.Boolean({ description: 'true or false' })),
  },
  { additionalProperties: false },
)
export type LocationListQuery = Static<typeof LocationListQuery>

export const LocationListResponse = Envelope(
  Type.Object({ locations: Type.Array(Location), pagination: ChangeFeedPagination }),
  'A page of locations',
)
export const LocationResponse = Envelope(Type.Object({ location: Location }), 'The location')
