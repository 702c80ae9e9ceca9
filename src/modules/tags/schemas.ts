import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, ErrorBody, Id, PageQuery, Pagination } from '../../http/schemas.js'

const TagName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description:
    'Unique within the organisation, compared case-insensitively; leading and trailing spaces are removed',
  examples: ['gas-safe'],
})

export const Tag = Type.Object(
  { id: Id, name: Type.String(), createdAt: DateTime, updatedAt: DateTime },
  { title: 'Tag' },
)
export type Tag = Static<typeof Tag>

export const TagListQuery = Type.Object({ ...PageQuery(50) }, { additionalProperties: false })
export type TagListQuery = Static<typeof TagListQuery>

export const CreateTagBody = Type.Object(
  { name: TagName },
  { additionalProperties: false, examples: [{ name: 'gas-safe' }] },
)
export type CreateTagBody = Static<typeof CreateTagBody>

export const UpdateTagBody = Type.Object(
  { name: Type.Optional(TagName) },
  { additionalProperties: false, examples: [{ name: 'gas-safe-certified' }] },
)
export type UpdateTagBody = Static<typeof UpdateTagBody>

export const TagListResponse = Envelope(
  Type.Object({ tags: Type.Array(Tag), pagination: Pagination }),
  'A page of tags',
)
export const TagResponse = Envelope(Type.Object({ tag: Tag }), 'The tag')
export const DeletedTagResponse = Envelope(
  Type.Object({ tag: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The tag was deleted',
)

export const TAG_NAME_CONFLICT_ERROR = {
  409: Type.Ref(ErrorBody, { description: 'Another tag of the organisation has this name (CONFLICT)' }),
}
export const TAG_IN_USE_ERROR = {
  409: Type.Ref(ErrorBody, { description: 'Vehicles or jobs still carry the tag (IN_USE)' }),
}
