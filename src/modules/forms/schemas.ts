import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Id, Nullable, PageQuery, Pagination } from '../../http/schemas.js'

export const MAX_ANSWERS_DEPTH = 32
/** The largest `answers` one submission may carry, measured as its JSON in UTF-8 (64 KiB). */
export const MAX_ANSWERS_BYTES = 64 * 1024
/**
 * Submissions are listed with their answers, so a page is capped at 20 of them: at most ~1.3 MB
 * (20 × 64 KiB) whatever was submitted, where 100 pages of answers would be 6.5 MB.
 */
export const MAX_SUBMISSIONS_PER_PAGE = 20

const FormName = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: 'Which form was filled in (a name or key of your choosing); at least one visible character',
  examples: ['boiler-safety-check'],
})
const Answers = Type.Record(Type.String(), Type.Unknown(), {
  description:
    `Any JSON object, stored and returned exactly as sent: at most ${MAX_ANSWERS_BYTES / 1024} KiB as JSON ` +
    `(413 PAYLOAD_TOO_LARGE beyond), nested at most ${MAX_ANSWERS_DEPTH} levels, numbers finite`,
  examples: [{ pressureBar: 1.5, leaks: false, notes: 'Replaced valve', photos: ['front.jpg'] }],
})

export const FormSubmission = Type.Object(
  {
    id: Id,
    jobId: Id,
    form: Type.String(),
    answers: Answers,
    submittedByUserId: Nullable(Type.String({ description: 'The team member who submitted it, if given' })),
    templateId: Nullable(
      Type.String({
        description: 'The form template the answers were checked against; null when none was named',
      }),
    ),
    createdAt: DateTime,
  },
  { title: 'FormSubmission' },
)
export type FormSubmission = Static<typeof FormSubmission>

export const SubmitFormBody = Type.Object(
  {
    form: Type.Optional({
      ...FormName,
      description: `${FormName.description}. Required unless templateId is given (then the template's name by default)`,
    }),
    templateId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'A form template of your organisation: the answers are checked against its fields (400 naming each ' +
          'wrong answer), and the submission counts for the template (a job that needs it can then be completed)',
      }),
    ),
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

export const FormSubmissionListQuery = Type.Object(
  {
    page: PageQuery(MAX_SUBMISSIONS_PER_PAGE).page,
    limit: Type.Integer({
      minimum: 1,
      maximum: MAX_SUBMISSIONS_PER_PAGE,
      default: MAX_SUBMISSIONS_PER_PAGE,
      description:
        `Page size (default and max ${MAX_SUBMISSIONS_PER_PAGE}, not 100 as elsewhere: every submission is ` +
        `listed with its answers, up to ${MAX_ANSWERS_BYTES / 1024} KiB each, so a page stays under 1.5 MB)`,
    }),
  },
  { additionalProperties: false },
)
export type FormSubmissionListQuery = Static<typeof FormSubmissionListQuery>

export const FormSubmissionResponse = Envelope(
  Type.Object({ formSubmission: FormSubmission }),
  'The form submission',
)
export const FormSubmissionListResponse = Envelope(
  Type.Object({ formSubmissions: Type.Array(FormSubmission), pagination: Pagination }),
  "A page of the job's form submissions",
)
