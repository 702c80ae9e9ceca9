import { type Static, Type } from '@sinclair/typebox'
import {
  CursorPagination,
  CursorQuery,
  DateTime,
  Envelope,
  Id,
  JobPriority,
  JobStatus,
  LatitudeString,
  LongitudeString,
  NullableObject,
  PageQuery,
  UpdatedSinceQuery,
} from '../../http/schemas.js'
import { bodyProperties, DETAIL_PROPERTIES, LISTED_PROPERTIES } from './fields.js'

const NamedRef = Type.Object({ id: Id, name: Type.String() })
const AssignedUser = Type.Object({ id: Id, name: Type.String(), email: Type.String() })

const listedProperties = {
  ...LISTED_PROPERTIES,
  customer: NullableObject(NamedRef),
  assignedUser: NullableObject(AssignedUser),
  location: NullableObject(NamedRef),
}

export const JobListed = Type.Object(listedProperties, { title: 'Job' })
export type JobListed = Static<typeof JobListed>

export const JobDetail = Type.Object(
  {
    ...listedProperties,
    ...DETAIL_PROPERTIES,
    customer: NullableObject(
      Type.Object({
        id: Id,
        name: Type.String(),
        address: Type.String(),
        latitude: LatitudeString,
        longitude: LongitudeString,
      }),
    ),
    tags: Type.Array(Type.Object({ tag: NamedRef })),
    demands: Type.Array(
      Type.Object({
        capacityDimension: Type.Object({ id: Id, key: Type.String(), label: Type.String() }),
        requiredValue: Type.Number(),
      }),
    ),
  },
  { title: 'JobDetail' },
)
export type JobDetail = Static<typeof JobDetail>

const jobListFields = {
  ...PageQuery(20),
  ...CursorQuery,
  ...UpdatedSinceQuery,
  status: Type.Optional(JobStatus),
  customerId: Type.Optional(Type.String({ maxLength: 200, description: 'Only jobs of this customer' })),
  locationId: Type.Optional(Type.String({ maxLength: 200, description: 'Only jobs at this location' })),
  priority: Type.Optional(JobPriority),
  targetDate: Type.Optional(
    Type.String({
      format: 'date',
      pattern: '^(?!0000)',
      description:
        'YYYY-MM-DD (UTC day): jobs whose window [earliestStart, latestEnd] overlaps that day; a missing ' +
        'bound is open, and a job with neither bound is not matched',
    }),
  ),
}

export const JobListQuery = Type.Object(jobListFields, { additionalProperties: false })
export type JobListQuery = Static<typeof JobListQuery>

/**
 * The admin API's list (the dashboard's) also searches titles, sorts by the jobs' date and reads
 * targetDate in a time zone; the public contract does not.
 */
export const AdminJobListQuery = Type.Object(
  {
    ...jobListFields,
    search: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Case-insensitive substring of the title; the other filters still apply',
      }),
    ),
    sort: Type.Optional(
      Type.Union([Type.Literal('createdAt'), Type.Literal('date')], {
        description:
          "createdAt (default): newest first, as the public API. date: by the job's date — its scheduled " +
          'start, else its window’s start — earliest first, jobs with neither last; pages by `page` only ' +
          '(no cursor, no updatedSince)',
      }),
    ),
    timeZone: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          "An IANA time zone (the organisation's, e.g. Europe/London): targetDate is that zone's day " +
          'instead of the UTC day',
        examples: ['Europe/London'],
      }),
    ),
  },
  { additionalProperties: false },
)
export type AdminJobListQuery = Static<typeof AdminJobListQuery>

export const CreateJobBody = Type.Object(bodyProperties(false), {
  additionalProperties: false,
  examples: [
    {
      title: 'Replace boiler pressure valve',
      description: 'Customer reports pressure dropping overnight',
      priority: 'HIGH',
      serviceDuration: 3600,
      timeWindowType: 'HARD',
      earliestStart: '2026-11-23T09:00:00Z',
      latestEnd: '2026-11-23T17:00:00Z',
    },
  ],
})
export type CreateJobBody = Static<typeof CreateJobBody>

export const UpdateJobBody = Type.Object(bodyProperties(true), {
  additionalProperties: false,
  examples: [{ priority: 'LOW', latestEnd: '2026-11-24T17:00:00Z' }],
})
export type UpdateJobBody = Static<typeof UpdateJobBody>

export const JobListResponse = Envelope(
  Type.Object({ jobs: Type.Array(JobListed), pagination: CursorPagination }),
  'A page of jobs',
)
export const JobResponse = Envelope(Type.Object({ job: JobDetail }), 'The job')
export const DeletedJobResponse = Envelope(
  Type.Object({ job: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The job was deleted',
)
