// The technician's day (/my): the signed-in user's own jobs, in the order they will be visited, with
// what the phone needs to run them — where to go, when, what to fill in.
import { type Static, Type } from '@sinclair/typebox'
import {
  CalendarDay,
  DateTime,
  Envelope,
  EXAMPLE_ID,
  Id,
  JobPriority,
  JobStatus,
  Nullable,
  TimeWindowType,
} from '../../http/schemas.js'
import { EtaRisk } from '../events/schemas.js'
import { FormAnswers, FormTemplate } from '../form-templates/schemas.js'
import { FormSubmission } from '../forms/schemas.js'
import { AbsenceReason } from '../shifts/absences-schemas.js'

const Coordinate = Nullable(Type.String({ description: 'Decimal degrees as a string' }))

export const MyJob = Type.Object(
  {
    id: Id,
    sequence: Type.Integer({
      minimum: 1,
      description: 'Its place in the day: the applied plan’s visiting order (scheduled start)',
    }),
    title: Type.String(),
    description: Nullable(Type.String({ description: 'The notes for the visit' })),
    status: JobStatus,
    priority: JobPriority,
    tags: Type.Array(Type.Object({ id: Id, name: Type.String() }, { additionalProperties: false })),
    serviceDuration: Type.Integer({ description: 'Seconds on site' }),
    timeWindowType: TimeWindowType,
    earliestStart: Nullable(DateTime),
    latestEnd: Nullable(DateTime),
    scheduledStart: Nullable(DateTime),
    scheduledEnd: Nullable(DateTime),
    startedAt: Nullable(DateTime),
    completedAt: Nullable(DateTime),
    eta: Nullable(
      Type.String({
        ...DateTime,
        description: 'Predicted arrival, from now (null: not a stop still to visit on a shift)',
      }),
    ),
    expectedStart: Nullable(DateTime),
    risk: Type.Unsafe<Static<typeof EtaRisk> | null>({
      ...EtaRisk,
      type: ['string', 'null'],
      enum: [...(EtaRisk as unknown as { enum: string[] }).enum, null],
    }),
    enRouteAt: Nullable(
      Type.String({ ...DateTime, description: 'When I said "On my way" (POST /my/jobs/:id/en-route)' }),
    ),
    timeZone: Type.String({ description: 'IANA time zone of the depot: the times to show' }),
    number: Type.String({ description: 'J-1042: the number the customer quotes' }),
    address: Nullable(
      Type.String({
        description: 'Where the job is, when not at its customer’s address; null: at customer.address',
      }),
    ),
    customer: Nullable(
      Type.Object(
        {
          id: Id,
          name: Type.String(),
          address: Type.String(),
          phone: Nullable(Type.String({ description: 'E.164, for a call from the phone; null: none' })),
          email: Nullable(Type.String({ description: 'For a mail from the phone; null: none' })),
          notes: Nullable(
            Type.String({ description: 'For whoever visits (gate codes, when to call); null: none' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    latitude: Coordinate,
    longitude: Coordinate,
    depot: Nullable(
      Type.Object(
        { id: Id, name: Type.String(), latitude: Type.String(), longitude: Type.String() },
        { additionalProperties: false, description: 'Where the route starts and ends' },
      ),
    ),
    forms: Type.Array(
      Type.Object(
        {
          template: FormTemplate,
          submission: Nullable(
            Type.Object(
              { id: Id, submittedAt: DateTime },
              { additionalProperties: false, description: 'The latest, if any' },
            ),
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'The forms this job needs (active templates for all jobs or for one of its tags)' },
    ),
  },
  { title: 'MyJob' },
)
export type MyJob = Static<typeof MyJob>

export const MyDayQuery = Type.Object(
  {
    date: CalendarDay('YYYY-MM-DD: the day, on the clock of each job’s depot'),
  },
  { additionalProperties: false },
)

export const MyShift = Type.Object(
  { id: Id, start: DateTime, end: DateTime },
  {
    additionalProperties: false,
    description:
      'One of the user’s shifts on the date: the phone shares its position from 30 min before start to ' +
      '30 min after end, never outside',
  },
)

export const MyAbsence = Type.Object(
  {
    id: Id,
    reason: AbsenceReason,
    startTime: Nullable(Type.String({ description: 'HH:MM; null: away the whole day' })),
    endTime: Nullable(Type.String()),
    note: Nullable(Type.String()),
  },
  { additionalProperties: false, description: 'An absence of the user touching the date' },
)

export const MyDayResponse = Envelope(
  Type.Object({
    date: Type.String(),
    jobs: Type.Array(MyJob),
    shifts: Type.Array(MyShift),
    off: Type.Boolean({
      description: 'The user is away the whole day (an absence without hours): no shift, no work',
    }),
    absences: Type.Array(MyAbsence, { description: 'The user’s absences on the date (holiday, sick…)' }),
  }),
  'The day’s jobs in visiting order',
)
export const MyJobResponse = Envelope(Type.Object({ job: MyJob }), 'The job')

export const MyFormParams = Type.Object(
  {
    id: Type.String({ description: 'The job', examples: [EXAMPLE_ID] }),
    templateId: Type.String({ description: 'The form template', examples: [EXAMPLE_ID] }),
  },
  { additionalProperties: false },
)
export const MyFormBody = Type.Object({ answers: FormAnswers }, { additionalProperties: false })
export const MyFormResponse = Envelope(Type.Object({ submission: FormSubmission }), 'The submission')
