// The contract of every domain event (spec §6): the `data` each one carries and the webhook body
// `{ event, timestamp, data }` receivers get. The same schemas type recordEvent, document the webhooks
// in both OpenAPI documents and, in tests, prove that a payload carries nothing undocumented.
import { type Static, type TOptional, type TSchema, Type } from '@sinclair/typebox'
import { DateTime, JobStatus, Nullable, StringEnum } from '../../http/schemas.js'
import { CHANGE_PROPERTIES, CREATED_EVENT_PROPERTIES } from '../jobs/fields.js'

const Closed = { additionalProperties: false } as const
const JobId = Type.String({ description: 'The job' })
const JobTitle = Type.String({ description: 'The job title (after the change)' })
const StatusAfter = Type.Unsafe<Static<typeof JobStatus>>({
  ...JobStatus,
  description: 'The job status after the change',
})
const NullableId = (description: string) => Nullable(Type.String({ description }))

const subject = { jobId: JobId, title: JobTitle, status: StatusAfter }

export const JobCreatedData = Type.Object(
  { ...subject, ...CREATED_EVENT_PROPERTIES },
  { ...Closed, title: 'JobCreatedData' },
)

/** One changed field: its value before and after, in the API's formats. */
const Change = <T extends TSchema>(value: T) => Type.Object({ previous: value, current: value }, Closed)

type FieldChanges = {
  [K in keyof typeof CHANGE_PROPERTIES]: TOptional<ReturnType<typeof Change<(typeof CHANGE_PROPERTIES)[K]>>>
}
/** A change of each field a write may set (jobs/fields.ts), in the published order. */
const fieldChanges = Object.fromEntries(
  Object.entries(CHANGE_PROPERTIES).map(([name, schema]) => [name, Type.Optional(Change(schema))]),
) as FieldChanges

const DemandValue = Type.Object({ capacityDimensionId: Type.String(), requiredValue: Type.Number() }, Closed)

export const JobChanges = Type.Object(
  {
    ...fieldChanges,
    tags: Type.Optional(Change(Type.Array(Type.String(), { description: 'Tag ids, sorted ascending' }))),
    demands: Type.Optional(
      Change(Type.Array(DemandValue, { description: 'Demands, sorted by capacityDimensionId' })),
    ),
  },
  {
    ...Closed,
    minProperties: 1,
    description:
      'Only the fields that really changed, keyed by their API name, each as { previous, current }',
  },
)
export type JobChanges = Static<typeof JobChanges>

export const JobUpdatedData = Type.Object(
  { ...subject, updatedAt: DateTime, changes: JobChanges },
  { ...Closed, title: 'JobUpdatedData' },
)

export const StatusChangedData = Type.Object(
  {
    ...subject,
    previousStatus: Type.Unsafe<Static<typeof JobStatus>>({
      ...JobStatus,
      description: 'The status before',
    }),
    changedAt: DateTime,
  },
  { ...Closed, title: 'StatusChangedData' },
)

export const JobAssignedData = Type.Object(
  {
    ...subject,
    customerId: NullableId('The customer, if any'),
    assignedUserId: Type.String({ description: 'The worker the job is now assigned to' }),
    shiftId: NullableId('The shift, if the assignment names one'),
    scheduledStart: DateTime,
    scheduledEnd: DateTime,
  },
  { ...Closed, title: 'JobAssignedData' },
)

export const JobUnassignedData = Type.Object(
  {
    ...subject,
    previousAssignedUserId: NullableId('The worker the job was taken from'),
  },
  { ...Closed, title: 'JobUnassignedData' },
)

/** Spec §6 lists exactly these fields. */
export const JobCompletedData = Type.Object(
  {
    jobId: JobId,
    title: JobTitle,
    status: StringEnum(['COMPLETED']),
    customerId: NullableId('The customer; null when the job has none'),
    assignedUserId: NullableId('The worker; null when the job had none'),
    completedAt: DateTime,
  },
  { ...Closed, title: 'JobCompletedData' },
)

export const JobCancelledData = Type.Object(
  {
    ...subject,
    status: StringEnum(['CANCELLED']),
    customerId: NullableId('The customer, if any'),
    assignedUserId: NullableId('The worker the job was assigned to, if any (kept for the record)'),
    previousStatus: StringEnum(['CREATED', 'ASSIGNED', 'IN_PROGRESS'], 'The status before'),
    cancelledAt: DateTime,
    reason: Nullable(Type.String({ description: 'As given to the cancel action; null when none was' })),
  },
  { ...Closed, title: 'JobCancelledData' },
)

export const FormSubmittedData = Type.Object(
  {
    submissionId: Type.String({ description: 'The form submission' }),
    jobId: JobId,
    title: Type.String({ description: 'The job title' }),
    form: Type.String({ description: 'Which form was filled in' }),
    answers: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The answers exactly as submitted (any JSON object)',
    }),
    submittedByUserId: NullableId('The user who submitted it, if given'),
    submittedAt: DateTime,
  },
  { ...Closed, title: 'FormSubmittedData' },
)

export const EtaRisk = StringEnum(
  ['ON_TIME', 'AT_RISK', 'LATE'],
  'ON_TIME; AT_RISK: expected to start within 15 min of the latest start its window allows, or a SOFT ' +
    'window already missed; LATE: a HARD window can no longer be met',
)

export const JobEtaChangedData = Type.Object(
  {
    jobId: JobId,
    eta: Type.String({ ...DateTime, description: 'The predicted arrival now' }),
    previousEta: Type.String({
      ...DateTime,
      description: 'The arrival last announced (the scheduled start before any was announced)',
    }),
    risk: EtaRisk,
  },
  { ...Closed, title: 'JobEtaChangedData' },
)

export const JobEnRouteData = Type.Object(
  {
    jobId: JobId,
    eta: Nullable(
      Type.String({
        ...DateTime,
        description: 'Predicted arrival; null when where the worker is is unknown',
      }),
    ),
    trackingUrl: Type.String({
      description: "The customer's tracking page (no sign-in): share it with them",
    }),
    worker: Type.Object({ firstName: Type.String() }, Closed),
  },
  { ...Closed, title: 'JobEnRouteData' },
)

export const AttachmentAddedData = Type.Object(
  {
    attachmentId: Type.String({ description: 'The attachment' }),
    jobId: JobId,
    title: Type.String({ description: 'The job title' }),
    kind: StringEnum(['PHOTO', 'SIGNATURE', 'FILE']),
    contentType: Type.String({
      description:
        'Sniffed from the content: image/jpeg, image/png, image/webp, image/heic, image/heif or application/pdf',
    }),
    sizeBytes: Type.Integer({ minimum: 0 }),
    filename: Type.String(),
    signerName: NullableId('SIGNATURE: who signed; else null'),
    signedAt: Nullable(Type.String({ ...DateTime, description: 'SIGNATURE: when they signed; else null' })),
    uploadedBy: NullableId('The user who uploaded it; null through an API key'),
    sha256: Type.String({ description: 'Lower-case hex SHA-256 of the content' }),
    contentUrl: Type.String({
      description:
        'Where the public API serves the content (read scope): /v1/public/jobs/{jobId}/attachments/{attachmentId}/content',
    }),
  },
  { ...Closed, title: 'AttachmentAddedData' },
)

export const EVENT_DATA = {
  JOB_CREATED: JobCreatedData,
  JOB_UPDATED: JobUpdatedData,
  STATUS_CHANGED: StatusChangedData,
  JOB_ASSIGNED: JobAssignedData,
  JOB_UNASSIGNED: JobUnassignedData,
  JOB_COMPLETED: JobCompletedData,
  JOB_CANCELLED: JobCancelledData,
  FORM_SUBMITTED: FormSubmittedData,
  JOB_ETA_CHANGED: JobEtaChangedData,
  JOB_EN_ROUTE: JobEnRouteData,
  ATTACHMENT_ADDED: AttachmentAddedData,
} as const

export type EventType = keyof typeof EVENT_DATA

/**
 * Events only the event feed (GET /events) carries, never a webhook: a soft-deleted job is otherwise
 * invisible, so a sync learns about it here. Not an automation trigger (the spec fixes those).
 */
export const JobDeletedData = Type.Object(
  {
    jobId: JobId,
    title: Type.String({ description: 'The job title when it was deleted' }),
    status: Type.Unsafe<Static<typeof JobStatus>>({
      ...JobStatus,
      description: 'The job status when it was deleted',
    }),
    deletedAt: DateTime,
  },
  { ...Closed, title: 'JobDeletedData' },
)
export const FEED_ONLY_EVENT_DATA = { JOB_DELETED: JobDeletedData } as const
export type FeedOnlyEventType = keyof typeof FEED_ONLY_EVENT_DATA
export type FeedEventType = EventType | FeedOnlyEventType
export const FEED_EVENT_TYPES = [
  ...Object.keys(EVENT_DATA),
  ...Object.keys(FEED_ONLY_EVENT_DATA),
] as FeedEventType[]
export type FeedOnlyEventData = { [E in FeedOnlyEventType]: Static<(typeof FEED_ONLY_EVENT_DATA)[E]> }
export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[]

/** The `data` of each event, so that recordEvent checks it at compile time. */
export type EventData = { [E in EventType]: Static<(typeof EVENT_DATA)[E]> }

/** One event and its data, correlated: a list of these may mix events. */
export type DomainEvent = { [E in EventType]: { event: E; data: EventData[E] } }[EventType]

/** When each event is sent; the OpenAPI documents repeat it for webhook receivers. */
export const EVENT_DESCRIPTIONS: Readonly<Record<EventType, string>> = {
  JOB_CREATED: 'A job was created (public POST /jobs). `data` holds the job as created.',
  JOB_UPDATED:
    "A job's details changed: public PATCH /jobs/:id, or a new set of tags or demands (admin PUT " +
    '/jobs/:id/tags, /jobs/:id/demands). `changes` holds only the fields whose value really changed, ' +
    'as { previous, current }; a request that changes nothing sends nothing. Deleting a job sends no ' +
    'webhook: the event feed (GET /events) carries a JOB_DELETED for it.',
  STATUS_CHANGED:
    "A job's status moved (admin assign, unassign, start, complete, cancel). Sent after the action's " +
    'own event (JOB_ASSIGNED, JOB_UNASSIGNED, JOB_COMPLETED or JOB_CANCELLED), with the same timestamp.',
  JOB_ASSIGNED:
    'A job was assigned to a worker, re-assigned to another worker or re-scheduled (admin POST ' +
    '/jobs/:id/assign). A first assignment is followed by STATUS_CHANGED; a re-assignment to another ' +
    'worker is preceded by JOB_UNASSIGNED for the previous worker, and the status stays ASSIGNED.',
  JOB_UNASSIGNED:
    'A job was taken from its worker: admin POST /jobs/:id/unassign (status becomes CREATED, followed ' +
    'by STATUS_CHANGED), or a re-assignment to another worker (status stays ASSIGNED, followed by ' +
    'JOB_ASSIGNED).',
  JOB_COMPLETED:
    'A job was completed (admin POST /jobs/:id/complete). `data` has exactly the fields of spec §6. ' +
    'Followed by STATUS_CHANGED.',
  JOB_CANCELLED: 'A job was cancelled (admin POST /jobs/:id/cancel). Followed by STATUS_CHANGED.',
  FORM_SUBMITTED:
    'A form submission was received for a job (admin POST /jobs/:id/form-submissions), in any job status.',
  JOB_ETA_CHANGED:
    "A remaining stop's predicted arrival moved by more than ETA_CHANGE_MINUTES (default 15) since the " +
    'last one announced (before any, since its scheduled start). Predictions are recomputed when a ' +
    "worker's position arrives, when a job is written, and every minute for shifts in progress; each " +
    'change is sent once, whatever the number of instances.',
  JOB_EN_ROUTE:
    'The worker set off to the job ("On my way", admin POST /my/jobs/:id/en-route); the status stays ' +
    'ASSIGNED. Sent once per job: pressing it again sends nothing and keeps the same tracking link.',
  ATTACHMENT_ADDED:
    'A photo, signature or file was attached to a job (admin POST /jobs/:id/attachments, or the worker’s ' +
    'POST /my/jobs/:id/attachments), once per stored attachment: a retried upload with the same ' +
    'Idempotency-Key sends nothing more. Read the content on the public API at `contentUrl` (read scope).',
}

/** JOB_COMPLETED → JobCompleted: the name of the event's schema in the OpenAPI documents. */
const pascalCase = (event: EventType) =>
  event
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')

/** The webhook body of one event: `timestamp` is when the change happened. */
function payloadOf<E extends EventType>(event: E) {
  return Type.Object(
    {
      event: StringEnum([event]),
      timestamp: Type.String({
        ...DateTime,
        description: 'When the change happened (the same for every event one change emits)',
      }),
      data: EVENT_DATA[event],
    },
    { ...Closed, title: `${pascalCase(event)}Webhook` },
  )
}

export const EVENT_PAYLOADS = Object.fromEntries(EVENT_TYPES.map((event) => [event, payloadOf(event)])) as {
  [E in EventType]: ReturnType<typeof payloadOf<E>>
}
