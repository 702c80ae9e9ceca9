import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox'
import {
  DateTime,
  Envelope,
  errorResponses,
  Id,
  PageQuery,
  Pagination,
  type Pagination as PaginationData,
} from '../../http/schemas.js'
import type { BaseRow, ReferenceKind } from './kinds.js'

/** A row of any kind as the API shows it: id, the kind's fields, createdAt, updatedAt. */
export type ReferenceItem = { id: string; createdAt: string; updatedAt: string } & Record<string, string>
/** The fields a create or update body carries. */
export type ReferenceInput = Record<string, string | undefined>

export const ReferenceListQuery = Type.Object({ ...PageQuery(50) }, { additionalProperties: false })
export type ReferenceListQuery = Static<typeof ReferenceListQuery>

const optional = (fields: Record<string, TSchema>) =>
  Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, Type.Optional(schema)]))

/** The request and response schemas of one kind, built from its configuration. */
export function referenceSchemas<Row extends BaseRow>(kind: ReferenceKind<Row>) {
  const { names, docs } = kind
  const bodyFields = kind.bodyFields as Record<string, TSchema>
  const resource: TObject = Type.Object(
    { id: Id, ...(kind.resourceFields as Record<string, TSchema>), createdAt: DateTime, updatedAt: DateTime },
    { title: names.singular },
  )
  const noun = names.noun.toLowerCase()
  return {
    Resource: resource,
    CreateBody: Type.Object(bodyFields, { additionalProperties: false, examples: [kind.examples.create] }),
    UpdateBody: Type.Object(optional(bodyFields), {
      additionalProperties: false,
      examples: [kind.examples.update],
    }),
    // The property names come from the configuration: TypeBox cannot infer these types itself.
    ListResponse: Type.Unsafe<{ data: Record<string, ReferenceItem[] | PaginationData>; message: string }>(
      Envelope(
        Type.Object({ [names.listProperty]: Type.Array(resource), pagination: Pagination }),
        `A page of ${noun}s`,
      ),
    ),
    Response: Type.Unsafe<{ data: Record<string, ReferenceItem>; message: string }>(
      Envelope(Type.Object({ [names.property]: resource }), `The ${noun}`),
    ),
    DeletedResponse: Type.Unsafe<{
      data: Record<string, { id: string; deletedAt: string }>
      message: string
    }>(
      Envelope(
        Type.Object({ [names.property]: Type.Object({ id: Id, deletedAt: DateTime }) }),
        `The ${noun} was deleted`,
      ),
    ),
    TAKEN_ERROR: errorResponses(['CONFLICT', docs.taken]),
    IN_USE_ERROR: errorResponses(['IN_USE', docs.inUse]),
  }
}
