import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, errorResponses, Id, Latitude, Longitude } from '../../http/schemas.js'

const Name = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description: 'At least one visible character',
})
const Code = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '\\S',
  description:
    'Short code shown on routes and reports, e.g. NTH (at most 32 characters); unique within the ' +
    'organisation, compared exactly (409 CONFLICT when another location has it)',
})
const Timezone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone name, e.g. Europe/London (or UTC); names are case-sensitive',
})
const IsPrimary = Type.Boolean({
  description:
    'At most one location of an organisation is primary: making this one primary makes the current ' +
    'primary location non-primary in the same change',
})
const IsActive = Type.Boolean({ description: 'false deactivates the location; it stays readable' })

const optionalFields = {
  description: Type.Optional(Type.String({ maxLength: 1000, description: 'Default ""' })),
  address: Type.Optional(Type.String({ maxLength: 1000, description: 'Default ""' })),
  isPrimary: Type.Optional(IsPrimary),
  isActive: Type.Optional(IsActive),
}

export const CreateLocationBody = Type.Object(
  {
    name: Name,
    code: Code,
    latitude: Latitude,
    longitude: Longitude,
    timezone: Timezone,
    ...optionalFields,
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Manchester Depot',
        code: 'MAN',
        description: 'Main depot, vans park in bay 3',
        address: '1 Depot Road, Manchester M1 1AA',
        latitude: 53.4808,
        longitude: -2.2426,
        timezone: 'Europe/London',
        isPrimary: true,
      },
    ],
  },
)
export type CreateLocationBody = Static<typeof CreateLocationBody>

export const UpdateLocationBody = Type.Object(
  {
    name: Type.Optional(Name),
    code: Type.Optional(Code),
    latitude: Type.Optional(Latitude),
    longitude: Type.Optional(Longitude),
    timezone: Type.Optional(Timezone),
    ...optionalFields,
  },
  { additionalProperties: false, examples: [{ isPrimary: true }, { isActive: false }] },
)
export type UpdateLocationBody = Static<typeof UpdateLocationBody>

export const DeletedLocationResponse = Envelope(
  Type.Object({ location: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The location was deleted',
)

export const LOCATION_IN_USE_ERROR = errorResponses([
  'IN_USE',
  'Vehicles, shifts or jobs still use the location; deactivate it instead',
])

export const CODE_CONFLICT_ERROR = errorResponses([
  'CONFLICT',
  'Another location of the organisation has this code',
])
