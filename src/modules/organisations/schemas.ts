import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Id, StringEnum } from '../../http/schemas.js'

export const PlanTier = StringEnum(
  ['FREE', 'STARTER', 'PRO', 'ENTERPRISE'],
  'FREE and STARTER have no API access; PRO and ENTERPRISE do',
)

export const Organisation = Type.Object(
  { id: Id, name: Type.String(), plan: PlanTier, createdAt: DateTime, updatedAt: DateTime },
  { title: 'Organisation' },
)
export type Organisation = Static<typeof Organisation>

export const UpdateOrganisationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' })),
    plan: Type.Optional(PlanTier),
  },
  { additionalProperties: false, examples: [{ name: 'Acme Plumbing & Heating' }] },
)
export type UpdateOrganisationBody = Static<typeof UpdateOrganisationBody>

export const OrganisationResponse = Envelope(Type.Object({ organisation: Organisation }), 'Your organisation')
