// The worker's data: the day's jobs and one job (GET /my/jobs…), and the three actions a worker takes
// on a job — start, complete, submit a form — each sent with its Idempotency-Key. Reads run even
// when the browser says it is offline ('offlineFirst'): the service worker answers them from the
// last copy it kept.
import { type QueryClient, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { QueuedAction } from './offline-queue'
import type { FormAnswers, FormSubmission, MyJob } from './types'

interface MyDay {
  date: string
  jobs: MyJob[]
}

export const myKeys = {
  all: ['my'] as const,
  day: (date: string) => ['my', 'day', date] as const,
  job: (id: string) => ['my', 'job', id] as const,
}

export function useMyDay(date: string) {
  return useQuery({
    queryKey: myKeys.day(date),
    queryFn: () => unwrap(api.GET('/my/jobs', { params: { query: { date } } })),
    networkMode: 'offlineFirst',
    refetchInterval: 60_000,
  })
}

export async function fetchMyJob(id: string): Promise<MyJob> {
  return (await unwrap(api.GET('/my/jobs/{id}', { params: { path: { id } } }))).job
}

export function useMyJob(id: string) {
  return useQuery({
    queryKey: myKeys.job(id),
    queryFn: () => fetchMyJob(id),
    networkMode: 'offlineFirst',
  })
}

export async function startJob(id: string, key: string): Promise<MyJob> {
  const params = { path: { id }, header: { 'Idempotency-Key': key } }
  return (await unwrap(api.POST('/my/jobs/{id}/start', { params }))).job
}

export async function completeJob(id: string, key: string): Promise<MyJob> {
  const params = { path: { id }, header: { 'Idempotency-Key': key } }
  return (await unwrap(api.POST('/my/jobs/{id}/complete', { params }))).job
}

export async function submitForm(
  jobId: string,
  templateId: string,
  answers: FormAnswers,
  key: string,
): Promise<FormSubmission> {
  const params = { path: { id: jobId, templateId }, header: { 'Idempotency-Key': key } }
  return (await unwrap(api.POST('/my/jobs/{id}/forms/{templateId}', { params, body: { answers } })))
    .submission
}

/** Sends one queued action (the offline queue's replay) and shows its result at once. */
export async function sendQueuedAction(queryClient: QueryClient, action: QueuedAction): Promise<void> {
  if (action.kind === 'form') {
    const submission = await submitForm(action.jobId, action.templateId, action.answers, action.key)
    showSubmission(queryClient, submission)
  } else {
    const job =
      action.kind === 'start'
        ? await startJob(action.jobId, action.key)
        : await completeJob(action.jobId, action.key)
    showJob(queryClient, job)
  }
}

function patchJob(queryClient: QueryClient, id: string, patch: (job: MyJob) => MyJob): void {
  queryClient.setQueryData<MyJob>(myKeys.job(id), (job) => (job ? patch(job) : job))
  queryClient.setQueriesData<MyDay>({ queryKey: ['my', 'day'] }, (day) =>
    day ? { ...day, jobs: day.jobs.map((job) => (job.id === id ? patch(job) : job)) } : day,
  )
}

/** A job the server answered with (after start or complete), in every view of it. */
export function showJob(queryClient: QueryClient, job: MyJob): void {
  patchJob(queryClient, job.id, (old) => ({ ...job, sequence: old.sequence }))
}

/** A form the server accepted, marked submitted on its job. */
export function showSubmission(queryClient: QueryClient, submission: FormSubmission): void {
  patchJob(queryClient, submission.jobId, (job) => ({
    ...job,
    forms: job.forms.map((form) =>
      form.template.id === submission.templateId
        ? { ...form, submission: { id: submission.id, submittedAt: submission.createdAt } }
        : form,
    ),
  }))
}
