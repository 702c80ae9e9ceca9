// Completion requirements (issue 31 §3): what a job needs before it can be completed, set per form
// template (every job the template applies to) and per job, and what the job has of it so far.
import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Id, Nullable, StringEnum } from '../../http/schemas.js'

export const MAX_REQUIRED_PHOTOS = 20
export const MAX_COMPLETION_NOTES = 5000

export const Requires = Type.Object(
  {
    signature: Type.Boolean({ description: "The customer's signature, drawn on the phone" }),
    photos: Type.Integer({
      minimum: 0,
      maximum: MAX_REQUIRED_PHOTOS,
      description: 'At least this many photos',
    }),
    notes: Type.Boolean({ description: 'Notes written on completing' }),
  },
  { additionalProperties: false, title: 'Requires', description: 'What completing the job needs' },
)
export type Requires = Static<typeof Requires>

export const NOTHING_REQUIRED: Requires = { signature: false, photos: 0, notes: false }

/** A write of requirements: what is left out is not required. */
export const RequiresInput = Type.Object(
  {
    signature: Type.Optional(Type.Boolean({ default: false, description: 'Default false' })),
    photos: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_REQUIRED_PHOTOS, default: 0, description: 'Default 0' }),
    ),
    notes: Type.Optional(Type.Boolean({ default: false, description: 'Default false' })),
  },
  {
    additionalProperties: false,
    description: 'What completing a job needs; left out: not required',
    examples: [{ signature: true, photos: 2 }],
  },
)
export type RequiresInput = Static<typeof RequiresInput>

export const MissingItem = StringEnum(['SIGNATURE', 'PHOTOS', 'NOTES', 'FORM'], 'What is still missing')

export const Completion = Type.Object(
  {
    requires: Requires,
    /** Where each requirement comes from. */
    sources: Type.Array(
      Type.Object({
        kind: StringEnum(['JOB', 'FORM_TEMPLATE'], "The job's own, or a form template that applies to it"),
        formTemplate: Nullable(Type.Object({ id: Id, name: Type.String() })),
        requires: Requires,
      }),
    ),
    has: Type.Object({
      signatures: Type.Integer({ minimum: 0 }),
      photos: Type.Integer({ minimum: 0 }),
      notes: Nullable(Type.String({ description: 'The notes written on completing, once completed' })),
      forms: Type.Array(Type.Object({ id: Id, name: Type.String(), submitted: Type.Boolean() })),
    }),
    missing: Type.Array(
      Type.Object({
        item: MissingItem,
        message: Type.String({ description: 'In words, for the checklist' }),
      }),
      { description: 'Empty when the job can be completed (given notes, when notes are required)' },
    ),
    notesWrittenAt: Nullable(DateTime),
  },
  {
    title: 'Completion',
    description:
      'The checklist before Complete: what the job requires (its own and its form templates’, the largest ' +
      'of each), what it has, and what is missing. Notes are given with the complete request itself.',
  },
)
export type Completion = Static<typeof Completion>

export const CompletionResponse = Envelope(Type.Object({ completion: Completion }), "The job's checklist")

export const JobRequirementsBody = Type.Object(
  { requires: RequiresInput },
  { additionalProperties: false, examples: [{ requires: { signature: true, photos: 2, notes: true } }] },
)
export type JobRequirementsBody = Static<typeof JobRequirementsBody>

export const CompletionNotes = Type.String({
  minLength: 1,
  maxLength: MAX_COMPLETION_NOTES,
  pattern: '\\S',
  description: `What was done, in the worker's words (≤ ${MAX_COMPLETION_NOTES} characters); kept with the job's proof`,
})
