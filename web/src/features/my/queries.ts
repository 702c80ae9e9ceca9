// The worker's data: the day's jobs and one job (GET /my/jobs…), and the three actions a worker takes
// on a job — start, complete, submit a form — each sent with its Idempotency-Key. Reads run even
// when the browser says it is offline ('offlineFirst'): the service worker answers them from the
// last copy it kept.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import { ApiError } from '../../api/errors'
import type { BlobStore } from './blob-store'
import type { AttachmentAction, QueuedAction } from './offline-queue'
import type { FormAnswers, FormSubmission, MyAttachment, MyJob } from './types'

interface MyDay {
  date: string
  jobs: MyJob[]
}

export const myKeys = {
  all: ['my'] as const,
  day: (date: string) => ['my', 'day', date] as const,
  job: (id: string) => ['my', 'job', id] as const,
  completion: (id: string) => ['my', 'completion', id] as const,
  attachments: (id: string) => ['my', 'attachments', id] as const,
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

/**
 * The job as the server has it now, never a copy the service worker kept (cache: 'no-store'): what
 * explains a refusal the server just made. A network failure throws (a TypeError), as offline.
 */
export async function fetchMyJobFromServer(id: string): Promise<MyJob> {
  return (await unwrap(api.GET('/my/jobs/{id}', { params: { path: { id } }, cache: 'no-store' }))).job
}

/**
 * The job as a day list already holds it (the list carries everything the job's page shows), and
 * when that list was loaded: a job never opened still opens at once, and offline.
 */
function jobFromDays(queryClient: QueryClient, id: string): { job: MyJob; updatedAt: number } | undefined {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ['my', 'day'] })) {
    const job = (query.state.data as MyDay | undefined)?.jobs.find((entry) => entry.id === id)
    if (job) return { job, updatedAt: query.state.dataUpdatedAt }
  }
  return undefined
}

export function useMyJob(id: string) {
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: myKeys.job(id),
    queryFn: () => fetchMyJob(id),
    networkMode: 'offlineFirst',
    initialData: () => jobFromDays(queryClient, id)?.job,
    initialDataUpdatedAt: () => jobFromDays(queryClient, id)?.updatedAt,
  })
}

/** What completing the job needs and has (the checklist before Complete); kept for offline use. */
export function useMyCompletion(id: string, enabled = true) {
  return useQuery({
    queryKey: myKeys.completion(id),
    queryFn: async () =>
      (await unwrap(api.GET('/my/jobs/{id}/completion', { params: { path: { id } } }))).completion,
    networkMode: 'offlineFirst',
    enabled,
  })
}

/** The job's photos, signatures and files as the server has them; kept for offline use. */
export function useMyAttachments(id: string) {
  return useQuery({
    queryKey: myKeys.attachments(id),
    queryFn: async () =>
      (await unwrap(api.GET('/my/jobs/{id}/attachments', { params: { path: { id } } }))).attachments,
    networkMode: 'offlineFirst',
  })
}

/** A queued photo or signature sent: the bytes are the raw body, the rest the query. */
export async function uploadMyAttachment(action: AttachmentAction, blob: Blob): Promise<MyAttachment> {
  const query = {
    kind: action.attachmentKind,
    filename: action.filename,
    ...(action.signerName && { signerName: action.signerName }),
    ...(action.signedAt && { signedAt: action.signedAt }),
  }
  const answer = api.POST('/my/jobs/{id}/attachments', {
    params: { path: { id: action.jobId }, query, header: { 'Idempotency-Key': action.key } },
    // The schema types the raw body as a string; the Blob goes as it is, with its own type.
    body: blob as unknown as string,
    bodySerializer: (body) => body,
    headers: { 'Content-Type': blob.type || 'application/octet-stream' },
  })
  return (await unwrap(answer)).attachment
}

/** A queued picture whose bytes the phone lost (storage cleared): refused, as it can never be sent. */
const PICTURE_LOST = new ApiError(410, {
  error: 'The picture is no longer on this phone (its storage was cleared): take it again.',
  code: 'PICTURE_LOST',
})

/**
 * `happenedAt`: when the worker did it, for an action sent later than it was made (the offline
 * queue's replay); the server takes its own clock without it.
 */
export async function startJob(id: string, key: string, happenedAt?: string): Promise<MyJob> {
  const params = { path: { id }, header: { 'Idempotency-Key': key } }
  const body = happenedAt ? { startedAt: happenedAt } : {}
  return (await unwrap(api.POST('/my/jobs/{id}/start', { params, body }))).job
}

export async function completeJob(
  id: string,
  key: string,
  happenedAt?: string,
  notes?: string,
): Promise<MyJob> {
  const params = { path: { id }, header: { 'Idempotency-Key': key } }
  const body = { ...(happenedAt && { completedAt: happenedAt }), ...(notes && { notes }) }
  return (await unwrap(api.POST('/my/jobs/{id}/complete', { params, body }))).job
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

/**
 * Sends one action and shows its result at once. `queued`: it waited on the phone (the offline
 * queue's replay), so a start or completion says when it was made (queuedAt), not when it is sent.
 */
export async function sendQueuedAction(
  queryClient: QueryClient,
  action: QueuedAction,
  queued = true,
  blobs: BlobStore | null = null,
): Promise<void> {
  if (action.kind === 'attachment') {
    const blob = await blobs?.get(action.key)
    if (!blob) throw PICTURE_LOST
    await uploadMyAttachment(action, blob)
    void queryClient.invalidateQueries({ queryKey: myKeys.attachments(action.jobId) })
    void queryClient.invalidateQueries({ queryKey: myKeys.completion(action.jobId) })
  } else if (action.kind === 'form') {
    const submission = await submitForm(action.jobId, action.templateId, action.answers, action.key)
    showSubmission(queryClient, submission)
  } else {
    const notes = action.kind === 'complete' ? action.notes : undefined
    const send = (key: string, happenedAt?: string) =>
      action.kind === 'start'
        ? startJob(action.jobId, key, happenedAt)
        : completeJob(action.jobId, key, happenedAt, notes)
    let job: MyJob
    try {
      job = await send(action.key, queued ? action.queuedAt : undefined)
    } catch (error) {
      if (!queued || !refusedTime(error)) throw error
      // The work stands even when its time is not believed (done past the end of the shift, a phone
      // clock far ahead): recorded when received rather than lost. Under a key of its own, as the
      // refusal stays stored under the first; derived from it, so a replay of this one is one too.
      job = await send(`${action.key}:received`)
    }
    showJob(queryClient, job)
    if (action.kind === 'complete')
      void queryClient.invalidateQueries({ queryKey: myKeys.completion(action.jobId) })
  }
}

/** The server refused only the time sent with a start or completion, not the action. */
function refusedTime(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  if (error.code === 'OUTSIDE_SHIFT') return true
  return error.status === 400 && error.details.some((d) => /^\/body\/(startedAt|completedAt)$/.test(d.path))
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
