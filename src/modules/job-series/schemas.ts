// The admin API's recurring job series. The job template is POST /jobs' own body (jobs/schemas.ts
// CreateJobBody's properties, so a job field added there is a template field here), without the
// window — each occurrence's window comes from the series' `window` — plus the tags and demands the
// dispatch routes take (jobs/admin-schemas.ts).
import { type Static, Type } from '@sinclair/typebox'
import {
  CalendarDay,
  DateTime,
  Envelope,
  EXAMPLE_ID,
  Id,
  JobStatus,
  Nullable,
  NullableObject,
  PageQuery,
  Pagination,
  StringEnum,
  TimeOfDay,
  TimeWindowType,
} from '../../http/schemas.js'
import { JobDemandsBody, JobTagsBody } from '../jobs/admin-schemas.js'
import { CreateJobBody } from '../jobs/schemas.js'
import { ALLOWED_RULE } from './rules.js'

const { earliestStart, latestEnd, timeWindowType, ...templateFields } = CreateJobBody.properties
void earliestStart
void latestEnd
void timeWindowType

const templateProperties = {
  ...templateFields,
  tagIds: Type.Optional(JobTagsBody.properties.tagIds),
  demands: Type.Optional(JobDemandsBody.properties.demands),
}

export const JobTemplate = Type.Object(templateProperties, {
  additionalProperties: false,
  title: 'JobTemplate',
  description:
    'The fields of POST /jobs but the window (earliestStart, latestEnd, timeWindowType: the series `window` ' +
    'gives them), checked as POST /jobs checks them, plus tagIds and demands as PUT /jobs/{id}/tags and ' +
    '/demands take them. Every occurrence is a job with these fields.',
})
export type JobTemplate = Static<typeof JobTemplate>

export const SeriesWindow = Type.Object(
  {
    startTime: TimeOfDay,
    endTime: Type.String({ ...TimeOfDay, description: 'HH:MM, after startTime (the same day)' }),
    type: TimeWindowType,
  },
  {
    additionalProperties: false,
    title: 'SeriesWindow',
    description:
      "Each occurrence's window, in the depot's time zone (the template's location, else the organisation's " +
      'primary depot, else UTC), so it keeps its local time across daylight-saving changes',
  },
)
export type SeriesWindow = Static<typeof SeriesWindow>

const WindowInput = Type.Optional(
  Nullable(
    Type.Object(SeriesWindow.properties, {
      additionalProperties: false,
      description:
        `${SeriesWindow.description}. Null or omitted: any time that day — the window is the whole local ` +
        'day, HARD (the visit belongs to that date)',
    }),
  ),
)

const RRuleText = Type.String({
  minLength: 1,
  maxLength: 500,
  description: `RFC 5545 RRULE text (an "RRULE:" prefix is accepted). Allowed: ${ALLOWED_RULE}. Stored normalised`,
  examples: ['FREQ=WEEKLY;BYDAY=MO;COUNT=3', 'FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU'],
})

export const CreateSeriesBody = Type.Object(
  {
    job: JobTemplate,
    rrule: RRuleText,
    startDate: CalendarDay('The first day the rule counts from (its DTSTART), in the depot’s calendar'),
    window: WindowInput,
  },
  {
    additionalProperties: false,
    examples: [
      {
        job: { title: 'Weekly office clean', serviceDuration: 3600 },
        rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=3',
        startDate: '2026-11-30',
        window: { startTime: '09:00', endTime: '11:00', type: 'HARD' },
      },
    ],
  },
)
export type CreateSeriesBody = Static<typeof CreateSeriesBody>

export const APPLY_TO = ['FUTURE_OCCURRENCES', 'FUTURE_JOBS'] as const

export const UpdateSeriesBody = Type.Object(
  {
    job: Type.Optional(
      Type.Partial(JobTemplate, {
        additionalProperties: false,
        title: 'JobTemplateChanges',
        description: 'Only the template fields sent change; null clears a nullable one',
      }),
    ),
    rrule: Type.Optional(RRuleText),
    startDate: Type.Optional(CalendarDay('The first day the rule counts from')),
    window: WindowInput,
    applyTo: Type.Optional(
      StringEnum(
        APPLY_TO,
        'FUTURE_OCCURRENCES (default): only occurrences not generated yet. FUTURE_JOBS: also the generated ' +
          'jobs still CREATED dated today or later (through PATCH /jobs/{id}, so each emits JOB_UPDATED); ' +
          'ASSIGNED and later jobs never change',
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ window: { startTime: '10:00', endTime: '12:00', type: 'SOFT' } }],
  },
)
export type UpdateSeriesBody = Static<typeof UpdateSeriesBody>

export const EndSeriesBody = Type.Object(
  { lastDate: CalendarDay('The last date an occurrence may have; none after it') },
  { additionalProperties: false, examples: [{ lastDate: '2027-03-31' }] },
)
export type EndSeriesBody = Static<typeof EndSeriesBody>

export const MoveOccurrenceBody = Type.Object(
  {
    date: CalendarDay('The date the occurrence happens instead'),
    window: Type.Optional(
      Nullable(
        Type.Object(SeriesWindow.properties, {
          additionalProperties: false,
          description: "The occurrence's own window that date; omitted or null: the series' window",
        }),
      ),
    ),
  },
  { additionalProperties: false, examples: [{ date: '2026-12-08' }] },
)
export type MoveOccurrenceBody = Static<typeof MoveOccurrenceBody>

export const OccurrenceParams = Type.Object(
  {
    id: Type.String({ description: 'The series', examples: [EXAMPLE_ID] }),
    date: CalendarDay("The occurrence's date in the series' rule"),
  },
  { additionalProperties: false },
)
export type OccurrenceParams = Static<typeof OccurrenceParams>

export const SeriesListQuery = Type.Object(PageQuery(50), { additionalProperties: false })
export type SeriesListQuery = Static<typeof SeriesListQuery>

export const SeriesJobsQuery = Type.Object(PageQuery(20), { additionalProperties: false })
export type SeriesJobsQuery = Static<typeof SeriesJobsQuery>

const seriesProperties = {
  id: Id,
  job: JobTemplate,
  rrule: Type.String({ description: 'Normalised RRULE text (RFC 5545), without DTSTART' }),
  ruleText: Type.String({ description: 'The rule in words, e.g. "every 3 months on the 2nd Tuesday"' }),
  startDate: Type.String({ format: 'date' }),
  endDate: Nullable(
    Type.String({ format: 'date', description: 'Set by POST …/end: no occurrence after it' }),
  ),
  window: NullableObject(SeriesWindow),
  timeZone: Type.String({ description: 'The depot time zone the window and dates are read in' }),
  createdAt: DateTime,
  updatedAt: DateTime,
}

export const Series = Type.Object(seriesProperties, { title: 'JobSeries' })
export type Series = Static<typeof Series>

export const SeriesListed = Type.Object(
  {
    ...seriesProperties,
    nextDate: Nullable(
      Type.String({
        format: 'date',
        description:
          'The date the next occurrence from today (the depot’s) happens on, skipped ones passed over and a ' +
          'moved one on its new date; null when none is left',
      }),
    ),
  },
  { title: 'JobSeriesListed' },
)
export type SeriesListed = Static<typeof SeriesListed>

export const SeriesJob = Type.Object(
  {
    id: Id,
    number: Type.String({ description: 'J-<number>, as the job shows it' }),
    title: Type.String(),
    status: JobStatus,
    occurrenceDate: Type.String({ format: 'date', description: "The occurrence's date in the rule" }),
    earliestStart: Nullable(DateTime),
    latestEnd: Nullable(DateTime),
    timeWindowType: TimeWindowType,
  },
  { title: 'JobSeriesJob' },
)
export type SeriesJob = Static<typeof SeriesJob>

export const Occurrence = Type.Object(
  {
    date: Type.String({ format: 'date', description: "The occurrence's date in the rule" }),
    movedTo: Nullable(Type.String({ format: 'date', description: 'The date it happens instead, if moved' })),
    skipped: Type.Boolean(),
    jobId: Nullable(Type.String({ description: 'Its job, once generated' })),
  },
  { title: 'SeriesOccurrence' },
)
export type Occurrence = Static<typeof Occurrence>

export const SeriesDetail = Type.Object(
  {
    ...seriesProperties,
    nextOccurrences: Type.Array(Occurrence, {
      description: 'The next 5 occurrences from today (the depot’s), skipped ones included and flagged',
    }),
  },
  { title: 'JobSeriesDetail' },
)
export type SeriesDetail = Static<typeof SeriesDetail>

export const SeriesResponse = Envelope(Type.Object({ series: SeriesDetail }), 'The series')
export const SeriesListResponse = Envelope(
  Type.Object({ series: Type.Array(SeriesListed), pagination: Pagination }),
  'Job series, newest first',
)
export const SeriesJobsResponse = Envelope(
  Type.Object({ jobs: Type.Array(SeriesJob), pagination: Pagination }),
  'The jobs generated for the series (deleted ones left out), latest occurrence first',
)
export const OccurrenceResponse = Envelope(
  Type.Object({ occurrence: Occurrence }),
  'The occurrence as it now is',
)
