import { Type } from '@sinclair/typebox'
import { Envelope, LatitudeString, LongitudeString } from '../../http/schemas.js'

export const GeocodeQuery = Type.Object(
  {
    q: Type.String({
      minLength: 3,
      maxLength: 200,
      pattern: '\\S',
      description: 'What the user typed of the address (3 to 200 characters)',
      examples: ['10 Downing Street, London'],
    }),
  },
  { additionalProperties: false },
)

export const GeocodeMatch = Type.Object(
  {
    label: Type.String({ description: 'The address as the geocoder writes it' }),
    latitude: LatitudeString,
    longitude: LongitudeString,
  },
  { title: 'GeocodeMatch' },
)

export const GeocodeResponse = Envelope(
  Type.Object({ matches: Type.Array(GeocodeMatch, { maxItems: 5 }) }),
  'Up to 5 places matching the text, best first (none: an empty list)',
)
