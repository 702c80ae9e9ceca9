import type { FormSubmissionRow } from '../../db/types.js'
import type { FormSubmission } from './schemas.js'

export function serializeFormSubmission(row: FormSubmissionRow): FormSubmission {
  return {
    id: row.id,
    jobId: row.job_id,
    form: row.form,
    answers: JSON.parse(row.answers) as Record<string, unknown>,
    submittedByUserId: row.submitted_by_user_id,
    templateId: row.template_id,
    createdAt: row.created_at,
  }
}
