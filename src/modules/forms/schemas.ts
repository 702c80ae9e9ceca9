import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Id, Nullable, PageQuery, Pagination } from '../../http/schemas.js'

export const MAX_ANSWERS_DEPTH = 32

const FormName = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: 'Which form was filled in (a name or key of your choosing); at least one visible character',
  examples: ['boiler-safety-check'],
})
const Answers = Type.Record(Type.String(), Type.Unknown(), {
  description: `Any JSON object, stored and returned exactly as sent (nested at most ${MAX_ANSWERS_DEPTH} levels)`,
  examples: [{ pressureBar: 1.5, leaks: false, notes: 'Replaced valve', photos: ['front.jpg'] }],
})

export const FormSubmission = Type.Object(
  {
    id: Id,
    jobId: Id,
    form: Type.String(),
    answers: Answers,
    submittedByUserId: Nullable(Type.String({ description: 'The team member who submitted it, if given' })),
    createdAt: DateTime,
  },
  { title: 'FormSubmission' },
)
export type FormSubmission = Static<typeof FormSubmission>

export const SubmitFormBody = Type.Object(
  {
    form: FormName,
    answers: Answers,
    submittedByUserId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'A user of your organisation (active or not)',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        form: 'boiler-safety-check',
        answers: { pressureBar: 1.5, leaks: false, notes: 'Replaced valve' },
        submittedByUserId: '0190f5c2-8d4e-7b1a-9c3d-2e4f6a8b0c1d',
      },
    ],
  },
)
export type SubmitFormBody = Static<typeof SubmitFormBody>

export const FormSubmissionListQuery = Type.Object({ ...PageQuery(50) }, { additionalProperties: false })
export type FormSubmissionListQuery = Static<typeof FormSubmissionListQuery>

export const FormSubmissionResponse = Envelope(
  Type.Object({ formSubmission: FormSubmission }),
  'The form submission',
)
export const FormSubmissionListResponse = Envelope(
  Type.Object({ formSubmissions: Type.Array(FormSubmission), pagination: Pagination }),
  "A page of the job's form submissions",
)
