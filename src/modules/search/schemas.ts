// The dashboard header's one search (GET /v1/admin/search, issue 30 §4).
import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Id, JobStatus, Nullable } from '../../http/schemas.js'
import { MIN_SEARCH_CHARACTERS } from './terms.js'

export const SearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        `A job number (J-1042 or 1042), or at least ${MIN_SEARCH_CHARACTERS} characters of a job's title or ` +
        'own address or a ' +
        "customer's name, address or email, or at least 3 digits of a customer's phone (spaces, dashes and " +
        'a leading + are ignored: "7700 900123" finds +447700900123). Case is ignored.',
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: 25,
      default: 10,
      description: 'At most this many jobs and this many customers (default 10, max 25)',
    }),
  },
  { additionalProperties: false },
)
export type SearchQuery = Static<typeof SearchQuery>

export const JobFound = Type.Object(
  {
    id: Id,
    number: Type.String({ description: 'J-1042' }),
    title: Type.String(),
    status: JobStatus,
    date: Nullable(
      Type.String({
        ...DateTime,
        description: "The job's date: its scheduled start, else its window's start; null: neither",
      }),
    ),
    customerName: Nullable(Type.String()),
  },
  { title: 'JobFound' },
)
export type JobFound = Static<typeof JobFound>

export const CustomerFound = Type.Object(
  { id: Id, name: Type.String(), address: Type.String(), phone: Nullable(Type.String()) },
  { title: 'CustomerFound' },
)
export type CustomerFound = Static<typeof CustomerFound>

export const SearchResponse = Envelope(
  Type.Object({
    jobs: Type.Array(JobFound, {
      description:
        'The number named first, then titles starting with the text, titles containing it, ' +
        'and jobs whose own address contains it or of the customers found; ties by date, latest first',
    }),
    customers: Type.Array(CustomerFound, {
      description:
        'Names starting with the text first, then names containing it, then other matches ' +
        '(address, email, phone); ties by name',
    }),
  }),
  'What the search found',
)
