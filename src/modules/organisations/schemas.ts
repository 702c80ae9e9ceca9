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

const CustomerEmailSwitches = {
  enRoute: Type.Boolean({
    description:
      'Email the customer (when they have an email) once the job is en route: the tracking link and the window',
  }),
  completed: Type.Boolean({ description: 'Email the customer once the job is completed' }),
}

export const NotificationSettings = Type.Object(
  {
    customerEmails: Type.Object({
      ...CustomerEmailSwitches,
      smtpConfigured: Type.Boolean({
        description:
          'Whether this service has an SMTP server to send them with (SMTP_URL); false: no email is sent, ' +
          'whatever the switches say',
      }),
    }),
  },
  { description: 'Messages this service sends to your customers (default: none)' },
)

const MapFields = {
  tileUrl: Type.Union([Type.String({ maxLength: 500 }), Type.Null()], {
    description:
      'Tile server URL template of every map (board, plan, My day, pin picker): https only, with {z}, {x} ' +
      'and {y} (and optionally {s} or {r}), e.g. `https://tiles.example.com/{z}/{x}/{y}.png`. Null: no ' +
      'tiles, the maps show depots, stops, labels and a scale bar on a plain background',
    examples: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
  }),
  attribution: Type.Union([Type.String({ maxLength: 300 }), Type.Null()], {
    description: 'Shown in the corner of the maps as the tile server asks (plain text)',
    examples: ['© OpenStreetMap contributors'],
  }),
}

export const MapSettings = Type.Object(MapFields, {
  description:
    "The maps' background, one per organisation (default: none, so the maps request nothing from another origin)",
})
export type MapSettings = Static<typeof MapSettings>

export const MapSettingsResponse = Envelope(
  Type.Object({
    map: MapSettings,
    addressLookup: Type.Boolean({
      description:
        'Whether this service has an address lookup (GEOCODER_URL, GET /geocode): the dialogs offer address ' +
        'matches; false: the pin is placed on the map or the coordinates typed',
    }),
  }),
  "The organisation's map background, and whether addresses can be looked up",
)

export const Organisation = Type.Object(
  {
    id: Id,
    name: Type.String(),
    plan: PlanTier,
    routing: RoutingSettings,
    notifications: NotificationSettings,
    map: MapSettings,
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
    notifications: Type.Optional(
      Type.Object(
        {
          customerEmails: Type.Optional(
            Type.Partial(Type.Object(CustomerEmailSwitches), { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    map: Type.Optional(Type.Partial(Type.Object(MapFields), { additionalProperties: false })),
  },
  { additionalProperties: false, examples: [{ name: 'Acme Plumbing & Heating' }] },
)
export type UpdateOrganisationBody = Static<typeof UpdateOrganisationBody>

export const OrganisationResponse = Envelope(Type.Object({ organisation: Organisation }), 'Your organisation')
