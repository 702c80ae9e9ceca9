import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, ErrorBody, Id, PageQuery, Pagination } from '../../http/schemas.js'

const DimensionKey = Type.String({
  pattern: '^[a-z][a-z0-9_]{0,62}$',
  maxLength: 63,
  description: 'a lowercase letter, then up to 62 lowercase letters, digits or underscores',
  examples: ['weight_kg'],
})
const DimensionLabel = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  examples: ['Weight (kg)'],
})

export const CapacityDimension = Type.Object(
  {
    id: Id,
    key: Type.String({ description: 'Unique within the organisation' }),
    label: Type.String(),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'CapacityDimension' },
)
export type CapacityDimension = Static<typeof CapacityDimension>

export const CapacityDimensionListQuery = Type.Object({ ...PageQuery(50) }, { additionalProperties: false })
export type CapacityDimensionListQuery = Static<typeof CapacityDimensionListQuery>

export const CreateCapacityDimensionBody = Type.Object(
  { key: DimensionKey, label: DimensionLabel },
  { additionalProperties: false, examples: [{ key: 'weight_kg', label: 'Weight (kg)' }] },
)
export type CreateCapacityDimensionBody = Static<typeof CreateCapacityDimensionBody>

export const UpdateCapacityDimensionBody = Type.Object(
  { key: Type.Optional(DimensionKey), label: Type.Optional(DimensionLabel) },
  { additionalProperties: false, examples: [{ label: 'Payload (kg)' }] },
)
export type UpdateCapacityDimensionBody = Static<typeof UpdateCapacityDimensionBody>

export const CapacityDimensionListResponse = Envelope(
  Type.Object({ capacityDimensions: Type.Array(CapacityDimension), pagination: Pagination }),
  'A page of capacity dimensions',
)
export const CapacityDimensionResponse = Envelope(
  Type.Object({ capacityDimension: CapacityDimension }),
  'The capacity dimension',
)
export const DeletedCapacityDimensionResponse = Envelope(
  Type.Object({ capacityDimension: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The capacity dimension was deleted',
)

export const KEY_CONFLICT_ERROR = {
  409: Type.Ref(ErrorBody, {
    description: 'Another capacity dimension of the organisation has this key (CONFLICT)',
  }),
}
export const DIMENSION_IN_USE_ERROR = {
  409: Type.Ref(ErrorBody, {
    description: 'Vehicle capacities or job demands still use the dimension (IN_USE)',
  }),
}
