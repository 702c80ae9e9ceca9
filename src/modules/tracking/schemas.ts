// What the customer's tracking page may know (issue 29 §3): the organisation's name, the
// technician's first name, the job's title and status, the arrival window and, while on the way, where
// the technician is relative to the destination. Nothing else about the customer, the worker or other
// jobs. The position is sent as metres east and north of the destination; the destination's own
// coordinates only when the organisation set a tile server (the tiles cannot be placed without them)
// and only while a position is drawn.
import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Nullable, StringEnum } from '../../http/schemas.js'

export const TrackingStatus = StringEnum(
  ['SCHEDULED', 'EN_ROUTE', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'],
  'SCHEDULED: not yet on the way; EN_ROUTE: on the way; IN_PROGRESS: arrived and working',
)

export const Tracking = Type.Object(
  {
    organisationName: Type.String(),
    technicianFirstName: Nullable(Type.String()),
    jobTitle: Type.String(),
    status: TrackingStatus,
    timeZone: Type.String({
      description: "The IANA time zone the page says times in: the job's depot's, else the organisation's",
    }),
    arrivalWindow: Nullable(
      Type.Object(
        {
          from: DateTime,
          to: DateTime,
          text: Type.String({
            description:
              'The window as the customer reads it, in that zone: "14:05–14:35 (BST)", dated when not today',
          }),
        },
        { description: 'The predicted arrival ± 15 minutes, each end rounded to 5 minutes' },
      ),
    ),
    position: Nullable(
      Type.Object(
        {
          metresEast: Type.Integer(),
          metresNorth: Type.Integer(),
          recordedAt: DateTime,
        },
        { description: 'Only while EN_ROUTE and known: where the technician was, from the destination' },
      ),
    ),
    map: Nullable(
      Type.Object(
        {
          tileUrl: Type.String({
            description: "The organisation's tile URL template ({s} {z} {x} {y} {-y} {r})",
          }),
          attribution: Nullable(Type.String({ description: 'Plain text shown in a corner of the map' })),
          destination: Nullable(
            Type.Object(
              { lat: Type.Number(), lng: Type.Number() },
              {
                description:
                  'Where the tiles are centred; only while a position is sent (the tiles cannot be placed without it)',
              },
            ),
          ),
        },
        {
          description:
            'The map background the organisation set; null when it set none (no tiles: a plain SVG)',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'Tracking' },
)
export type Tracking = Static<typeof Tracking>

export const TrackingResponse = Envelope(Type.Object({ tracking: Tracking }), 'The tracked visit')

export const TokenParams = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the tracking link' }) },
  { additionalProperties: false },
)
