import { type Static, Type } from '@sinclair/typebox'
import { DateTime, DecimalString, Envelope, Id, PageQuery, Pagination } from '../../http/schemas.js'

export const Location = Type.Object(
  {
    id: Id,
    name: Type.String(),
    code: Type.String(),
    description: Type.String(),
    address: Type.String(),
    latitude: DecimalString,
    longitude: DecimalString,
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
    isActive: Type.Optional(Type.Boolean({ description: 'true or false' })),
  },
  { additionalProperties: false },
)
export type LocationListQuery = Static<typeof LocationListQuery>

export const LocationListResponse = Envelope(
  Type.Object({ locations: Type.Array(Location), pagination: Pagination }),
  'A page of locations',
)
export const LocationResponse = Envelope(Type.Object({ location: Location }), 'The location')
