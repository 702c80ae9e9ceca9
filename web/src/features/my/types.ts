// The worker's view of a job and the forms it needs, as the admin API returns them (GET /my/jobs),
// from the generated schema.
import type { RequestBody, Schema } from '../../api/types'

export type MyJob = Schema<'MyJob'>
export type MyJobForm = MyJob['forms'][number]
export type JobStatus = MyJob['status']
export type FormTemplate = Schema<'FormTemplate'>
export type FormField = Schema<'FormField'>
export type FieldType = FormField['type']
export type FormSubmission = Schema<'FormSubmission'>
export type FormAnswers = RequestBody<'/my/jobs/{id}/forms/{templateId}', 'post'>['answers']
export type Completion = Schema<'Completion'>
export type MyAttachment = Schema<'Attachment'>
