import { type Static, Type } from '@sinclair/typebox'
import {
  ChangeFeedPagination,
  CursorQuery,
  DateTime,
  Duration,
  Envelope,
  ExternalIdInput,
  Id,
  JobPriority,
  Latitude,
  LatitudeString,
  Longitude,
  LongitudeString,
  Nullable,
  PageQuery,
  TimeOfDay,
  TimeWindowType,
  UpdatedSinceQuery,
} from '../../http/schemas.js'

export const Customer = Type.Object(
  {
    id: Id,
    name: Type.String(),
    address: Type.String(),
    latitude: LatitudeString,
    longitude: LongitudeString,
    serviceDuration: Type.Integer({ description: 'Default service time of a job here, in seconds' }),
    priority: JobPriority,
    timeWindowType: TimeWindowType,
    operationalStart: Type.String({ description: 'Opening time, HH:MM' }),
    operationalEnd: Type.String({ description: 'Closing time, HH:MM' }),
    email: Nullable(Type.String({ description: 'Where "on my way" and completion emails go; null: none' })),
    phone: Nullable(Type.String({ description: 'E.164, e.g. +447700900123; null: none' })),
    notes: Nullable(
      Type.String({ description: 'For whoever visits (gate codes, when to call); null: none' }),
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
    externalId: Nullable(
      Type.String({
        description:
          'Your own reference for the customer (an ERP or CRM key), unique in your organisation; CSV ' +
          'imports update the customer with the same externalId. null: none',
      }),
    ),
  },
  { title: 'Customer' },
)
export type Customer = Static<typeof Customer>

export const CustomerListQuery = Type.Object(
  {
    ...PageQuery(50),
    ...CursorQuery,
    ...UpdatedSinceQuery,
    search: Type.Optional(
      Type.String({ maxLength: 200, description: 'Case-insensitive substring of the name or the address' }),
    ),
  },
  { additionalProperties: false },
)
export type CustomerListQuery = Static<typeof CustomerListQuery>

const Name = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description: 'At least one visible character',
})

/** What the customer emails go to (issue 29): an address, or null to clear it. */
export const CustomerEmail = Nullable(
  Type.String({ format: 'email', maxLength: 254, description: 'An email address; null clears it' }),
)
/** E.164: a plus sign and 8 to 15 digits, nothing else (no spaces or dashes). */
export const CustomerPhone = Nullable(
  Type.String({
    pattern: '^\\+[0-9]{8,15}$',
    description: 'A phone number in E.164 form: + and 8 to 15 digits, e.g. +447700900123; null clears it',
  }),
)

const optionalFields = {
  address: Type.Optional(Type.String({ maxLength: 1000, description: 'Default ""' })),
  serviceDuration: Type.Optional(Type.Integer({ ...Duration, description: 'Seconds, default 900' })),
  priority: Type.Optional(JobPriority),
  timeWindowType: Type.Optional(TimeWindowType),
  operationalStart: Type.Optional(
    Type.String({ ...TimeOfDay, description: 'HH:MM, default 00:00; before operationalEnd' }),
  ),
  operationalEnd: Type.Optional(
    Type.String({ ...TimeOfDay, description: 'HH:MM, default 23:59; after operationalStart' }),
  ),
  email: Type.Optional(CustomerEmail),
  phone: Type.Optional(CustomerPhone),
  notes: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 2000,
        description: 'For whoever visits: gate codes, when to call (at most 2000 characters); null clears it',
      }),
    ),
  ),
  externalId: Type.Optional(ExternalIdInput),
}

export const CreateCustomerBody = Type.Object(
  { name: Name, latitude: Latitude, longitude: Longitude, ...optionalFields },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Northern Quarter Bakery',
        address: '41 Oldham Street, Manchester M1 1JG',
        latitude: 53.4839,
        longitude: -2.2346,
        serviceDuration: 1800,
        priority: 'NORMAL',
        timeWindowType: 'SOFT',
        operationalStart: '07:00',
        operationalEnd: '17:30',
        email: 'orders@nqbakery.example',
        phone: '+441612345678',
      },
    ],
  },
)
export type CreateCustomerBody = Static<typeof CreateCustomerBody>

export const UpdateCustomerBody = Type.Object(
  {
    name: Type.Optional(Name),
    latitude: Type.Optional(Latitude),
    longitude: Type.Optional(Longitude),
    ...optionalFields,
  },
  {
    additionalProperties: false,
    examples: [{ address: '43 Oldham Street, Manchester M1 1JG', operationalEnd: '18:00' }],
  },
)
export type UpdateCustomerBody = Static<typeof UpdateCustomerBody>

export const CustomerListResponse = Envelope(
  Type.Object({ customers: Type.Array(Customer), pagination: ChangeFeedPagination }),
  'A page of customers',
)
export const CustomerResponse = Envelope(Type.Object({ customer: Customer }), 'The customer')
