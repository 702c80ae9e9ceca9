// Request bodies of the admin job routes. Every route answers with the public single-job shape
// (JobResponse from ./schemas.ts), but the assignment check, whose answer is here.

import { type Static, Type } from '@sinclair/typebox'
import { DateTimeInput, Envelope, Nullable, StringEnum } from '../../http/schemas.js'
import { CompletionNotes } from '../completion/schemas.js'
import { ASSIGNMENT_PROBLEM_CODES } from './assignment-check.js'

const ReferenceId = (description: string) => Type.String({ minLength: 1, maxLength: 200, description })

export const AssignJobBody = Type.Object(
  {
    userId: ReferenceId('The worker: an active user of your organisation'),
    shiftId: Type.Optional(
      Nullable(
        ReferenceId(
          'A shift of that worker whose vehicle is active; omitted or null: the job is on no shift',
        ),
      ),
    ),
    scheduledStart: DateTimeInput,
    scheduledEnd: Type.String({
      ...DateTimeInput,
      description: `${DateTimeInput.description}; after scheduledStart`,
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        userId: '0190f5c2-8d4e-7b1a-9c3d-2e4f6a8b0c1d',
        shiftId: '0190f5c2-8d4e-7b1a-9c3d-2e4f6a8b0c1e',
        scheduledStart: '2026-11-23T10:00:00Z',
        scheduledEnd: '2026-11-23T11:00:00Z',
      },
    ],
  },
)
export type AssignJobBody = Static<typeof AssignJobBody>

export const AssignmentProblem = Type.Object(
  {
    code: StringEnum(
      ASSIGNMENT_PROBLEM_CODES,
      'HARD: OUTSIDE_TIME_WINDOW, WORKER_ABSENT, OUTSIDE_SHIFT, OVERLAP, SKILL_MISSING, CAPACITY_EXCEEDED ' +
        '(assign refuses them with this code); SOFT: SOFT_WINDOW_MISSED, OVERTIME, IN_THE_PAST',
    ),
    severity: StringEnum(
      ['HARD', 'SOFT'],
      'HARD: assign would refuse it (422); SOFT: allowed, worth a second look',
    ),
    message: Type.String({ description: "In words, with times in the worker's depot time zone" }),
  },
  { additionalProperties: false },
)

export const AssignmentCheckResponse = Envelope(
  Type.Object({
    check: Type.Object({
      problems: Type.Array(AssignmentProblem, {
        description: 'Every problem found, HARD first; empty: the assignment is fine',
      }),
    }),
  }),
  'What is wrong with the proposed assignment (nothing was written)',
)

/** unassign takes no input; an empty object (or no body at all) is accepted. */
export { NoInputBody } from '../../http/schemas.js'

const HAPPENED_RULES =
  "not in the future (2 minutes of clock difference allowed: 400), within the worker's shift ± 30 min " +
  '(a job on no shift, of a worker with none: within the last 24 hours) else 422 OUTSIDE_SHIFT'

/** A time the caller may send instead of now: when the worker did it (offline, sent later). */
const HappenedAt = (what: string, rule = '') =>
  Type.Optional(
    Type.String({
      ...DateTimeInput,
      description: `When ${what}, if not now (work done offline and sent later): ${HAPPENED_RULES}${rule}`,
    }),
  )

/** start's optional body (none, or {}: started now). */
export const StartJobBody = Type.Object(
  { startedAt: HappenedAt('the worker started') },
  { additionalProperties: false, description: 'Optional: no body, or {}, starts the job now' },
)
export type StartJobBody = Static<typeof StartJobBody>

/** complete's optional body (none, or {}: completed now). */
export const CompleteJobBody = Type.Object(
  {
    completedAt: HappenedAt('the job was completed', "; not before the job's startedAt (400)"),
    notes: Type.Optional(CompletionNotes),
  },
  { additionalProperties: false, description: 'Optional: no body, or {}, completes the job now' },
)
export type CompleteJobBody = Static<typeof CompleteJobBody>

export const CancelJobBody = Type.Object(
  {
    reason: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Why; recorded in the JOB_CANCELLED event, not on the job',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Optional: {}, { reason } or no body at all',
    examples: [{ reason: 'Customer cancelled by phone' }],
  },
)
export type CancelJobBody = Static<typeof CancelJobBody>

const MAX_SET_SIZE = 50

export const JobTagsBody = Type.Object(
  {
    tagIds: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      uniqueItems: true,
      maxItems: MAX_SET_SIZE,
      description: 'Every tag of the job (replaces the current set); each must exist in your organisation',
    }),
  },
  { additionalProperties: false, examples: [{ tagIds: ['0190f5c2-8d4e-7b1a-9c3d-2e4f6a8b0c1d'] }] },
)
export type JobTagsBody = Static<typeof JobTagsBody>

export const JobDemandsBody = Type.Object(
  {
    demands: Type.Array(
      Type.Object(
        {
          capacityDimensionId: Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'Must exist in your organisation; at most once per request',
          }),
          requiredValue: Type.Number({ minimum: 0, description: 'Amount of that capacity the job uses' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_SET_SIZE, description: 'Every demand of the job (replaces the current set)' },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { demands: [{ capacityDimensionId: '0190f5c2-8d4e-7b1a-9c3d-2e4f6a8b0c1d', requiredValue: 2 }] },
    ],
  },
)
export type JobDemandsBody = Static<typeof JobDemandsBody>
