import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Id, StringEnum } from '../../http/schemas.js'

export const PlanTier = StringEnum(
  ['FREE', 'STARTER', 'PRO', 'ENTERPRISE'],
  'FREE and STARTER have no API access; PRO and ENTERPRISE do',
)

const RoutingFields = {
  detourFactor: Type.Number({
    minimum: 1,
    maximum: 5,
    description: 'Route optimiser: road distance = great-circle distance × this factor (default 1.3)',
  }),
  speedKmh: Type.Number({
    exclusiveMinimum: 0,
    maximum: 200,
    description:
      'Route optimiser: average travel speed in km/h at a vehicle speedFactor of 1 (default 40); a vehicle ' +
      'travels at speedKmh × speedFactor',
  }),
  latenessPenaltyPerMinute: Type.Number({
    minimum: 0,
    maximum: 1_000_000,
    description:
      'Route optimiser: cost of each minute a SOFT-window visit ends after latestEnd, in the currency of ' +
      'the vehicle costs (default 1)',
  }),
}

export const RoutingSettings = Type.Object(RoutingFields, {
  description: 'How the route optimiser measures travel and prices lateness for this organisation',
})

export const Organisation = Type.Object(
  {
    id: Id,
    name: Type.String(),
    plan: PlanTier,
    routing: RoutingSettings,
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'Organisation' },
)
export type Organisation = Static<typeof Organisation>

export const UpdateOrganisationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' })),
    plan: Type.Optional(PlanTier),
    routing: Type.Optional(Type.Partial(Type.Object(RoutingFields), { additionalProperties: false })),
  },
  { additionalProperties: false, examples: [{ name: 'Acme Plumbing & Heating' }] },
)
export type UpdateOrganisationBody = Static<typeof UpdateOrganisationBody>

export const OrganisationResponse = Envelope(Type.Object({ organisation: Organisation }), 'Your organisation')
