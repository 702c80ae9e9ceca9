import { type Static, Type } from '@sinclair/typebox'
import {
  DateTime,
  Envelope,
  errorResponses,
  Id,
  Latitude,
  Longitude,
  Nullable,
  VehicleEndPolicy,
} from '../../http/schemas.js'

const Name = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description: 'At least one visible character',
})
const LocationId = Type.String({
  maxLength: 200,
  description: 'The depot the vehicle starts from; must be a location of your organisation',
})
const Cost = (description: string) => Type.Number({ minimum: 0, description })

const writableFields = {
  fixedCost: Type.Optional(Cost('Cost of using the vehicle at all, per route; ≥ 0, default 0')),
  costPerKm: Type.Optional(Cost('≥ 0, default 0')),
  costPerHour: Type.Optional(Cost('≥ 0, default 0')),
  speedFactor: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 10,
      description: 'Multiplies travel speed: 0.8 is 20% slower than normal traffic; > 0 and ≤ 10, default 1',
    }),
  ),
  startLatitude: Type.Optional(
    Nullable({ ...Latitude, description: 'Where routes start, if not the depot; set with startLongitude' }),
  ),
  startLongitude: Type.Optional(
    Nullable({ ...Longitude, description: 'Where routes start, if not the depot; set with startLatitude' }),
  ),
  endPolicy: Type.Optional(VehicleEndPolicy),
  isActive: Type.Optional(Type.Boolean({ description: 'false deactivates the vehicle; default true' })),
  tagIds: Type.Optional(
    Type.Array(Type.String({ maxLength: 200 }), {
      maxItems: 100,
      uniqueItems: true,
      description: 'Tags of your organisation; replaces the whole set ([] removes every tag)',
    }),
  ),
  capacities: Type.Optional(
    Type.Array(
      Type.Object(
        {
          capacityDimensionId: Type.String({
            maxLength: 200,
            description: 'A capacity dimension of your organisation, at most once per vehicle',
          }),
          maxValue: Type.Number({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      {
        maxItems: 100,
        description: 'What the vehicle can carry, per dimension; replaces the whole set ([] removes all)',
      },
    ),
  ),
}

export const CreateVehicleBody = Type.Object(
  { name: Name, locationId: LocationId, ...writableFields },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Van 1',
        locationId: '01970c3e-8f3a-7c41-9d2e-5b6a7c8d9e0f',
        fixedCost: 50,
        costPerKm: 0.45,
        costPerHour: 22.5,
        speedFactor: 1,
        startLatitude: null,
        startLongitude: null,
        endPolicy: 'RETURN_TO_ORIGIN',
        tagIds: ['01970c3f-1a2b-7c3d-8e4f-5a6b7c8d9e0f'],
        capacities: [{ capacityDimensionId: '01970c3f-2b3c-7d4e-8f5a-6b7c8d9e0f1a', maxValue: 1000 }],
      },
    ],
  },
)
export type CreateVehicleBody = Static<typeof CreateVehicleBody>

export const UpdateVehicleBody = Type.Object(
  { name: Type.Optional(Name), locationId: Type.Optional(LocationId), ...writableFields },
  {
    additionalProperties: false,
    examples: [{ costPerKm: 0.5, tagIds: [] }, { isActive: false }],
  },
)
export type UpdateVehicleBody = Static<typeof UpdateVehicleBody>

export const DeletedVehicleResponse = Envelope(
  Type.Object({ vehicle: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The vehicle was deleted',
)

export const VEHICLE_IN_USE_ERROR = errorResponses([
  'IN_USE',
  'Shifts still use the vehicle; deactivate it instead',
])
