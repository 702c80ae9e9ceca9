import { type Static, Type } from '@sinclair/typebox'
import {
  ChangeFeedPagination,
  CursorQuery,
  DateTime,
  Envelope,
  Id,
  LatitudeString,
  LongitudeString,
  Nullable,
  PageQuery,
  UpdatedSinceQuery,
  VehicleEndPolicy,
} from '../../http/schemas.js'

const NamedRef = Type.Object({ id: Id, name: Type.String() })

export const Vehicle = Type.Object(
  {
    id: Id,
    name: Type.String(),
    locationId: Type.String({ description: 'The depot the vehicle is assigned to' }),
    fixedCost: Type.Number(),
    costPerKm: Type.Number(),
    costPerHour: Type.Number(),
    speedFactor: Type.Number(),
    startLatitude: Nullable(LatitudeString),
    startLongitude: Nullable(LongitudeString),
    endPolicy: VehicleEndPolicy,
    isActive: Type.Boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
    location: NamedRef,
    tags: Type.Array(Type.Object({ tag: NamedRef }), { description: 'Sorted by tag name' }),
    capacities: Type.Array(
      Type.Object({
        capacityDimension: Type.Object({ id: Id, key: Type.String(), label: Type.String() }),
        maxValue: Type.Number(),
      }),
      { description: 'Sorted by capacity dimension key' },
    ),
  },
  { title: 'Vehicle' },
)
export type Vehicle = Static<typeof Vehicle>

export const VehicleListQuery = Type.Object(
  {
    ...PageQuery(50),
    ...CursorQuery,
    ...UpdatedSinceQuery,
    locationId: Type.Optional(Type.String({ maxLength: 200, description: 'Only vehicles of this depot' })),
    isActive: Type.Optional(Type.Boolean({ description: 'true or false' })),
  },
  { additionalProperties: false },
)
export type VehicleListQuery = Static<typeof VehicleListQuery>

export const VehicleListResponse = Envelope(
  Type.Object({ vehicles: Type.Array(Vehicle), pagination: ChangeFeedPagination }),
  'A page of vehicles',
)
export const VehicleResponse = Envelope(Type.Object({ vehicle: Vehicle }), 'The vehicle')
