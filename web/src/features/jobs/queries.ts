// Jobs: the list (paged and filtered on the server), one job with its tags and demands, create and
// edit (the job, then its tags and demands), delete, the lifecycle actions, and the job's form
// submissions. Every write refreshes what shows jobs (lists, the job, the board's day).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { QueryParams, RequestBody, Schema } from '../../api/types'

export type Job = Schema<'Job'>
export type JobDetail = Schema<'JobDetail'>
export type FormSubmission = Schema<'FormSubmission'>
export type JobBody = RequestBody<'/jobs', 'post'>
export type JobFilters = Omit<QueryParams<'/jobs'>, 'page' | 'limit' | 'cursor'>
export type AssignBody = RequestBody<'/jobs/{id}/assign', 'post'>
export const PAGE_SIZE = 25

export function useJobs(page: number, filters: JobFilters) {
  const query = { page, limit: PAGE_SIZE, ...filters }
  return useQuery({
    queryKey: ['jobs', 'list', query],
    queryFn: () => unwrap(api.GET('/jobs', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

export function useJob(id: string) {
  return useQuery({
    queryKey: ['jobs', 'one', id],
    queryFn: () => unwrap(api.GET('/jobs/{id}', { params: { path: { id } } })),
  })
}

export function useFormSubmissions(jobId: string, page: number) {
  const query = { page, limit: 10 }
  return useQuery({
    queryKey: ['jobs', 'form-submissions', jobId, query],
    queryFn: () => unwrap(api.GET('/jobs/{id}/form-submissions', { params: { path: { id: jobId }, query } })),
    placeholderData: keepPreviousData,
  })
}

function useInvalidateJobs() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: ['jobs'] })
}

export interface JobSave {
  id?: string
  job: JobBody
  /** Replaced after the job is saved, when given. */
  tagIds?: string[]
  demands?: RequestBody<'/jobs/{id}/demands', 'put'>['demands']
}

/** The step of a save that failed: the job itself, or its tags or demands after it was saved. */
export class JobSaveError extends Error {
  constructor(
    readonly step: 'job' | 'tags' | 'demands',
    readonly cause: unknown,
    readonly saved: JobDetail | null,
  ) {
    super(step)
  }
}

export function useSaveJob() {
  const invalidate = useInvalidateJobs()
  return useMutation({
    mutationFn: async ({ id, job, tagIds, demands }: JobSave): Promise<JobDetail> => {
      let saved: JobDetail
      try {
        saved = (
          await unwrap(
            id
              ? api.PATCH('/jobs/{id}', { params: { path: { id } }, body: job })
              : api.POST('/jobs', { body: job }),
          )
        ).job
      } catch (error) {
        throw new JobSaveError('job', error, null)
      }
      const path = { params: { path: { id: saved.id } } }
      if (tagIds) {
        try {
          saved = (await unwrap(api.PUT('/jobs/{id}/tags', { ...path, body: { tagIds } }))).job
        } catch (error) {
          throw new JobSaveError('tags', error, saved)
        }
      }
      if (demands) {
        try {
          saved = (await unwrap(api.PUT('/jobs/{id}/demands', { ...path, body: { demands } }))).job
        } catch (error) {
          throw new JobSaveError('demands', error, saved)
        }
      }
      return saved
    },
    onSettled: invalidate,
  })
}

export function useDeleteJob() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/jobs/{id}', { params: { path: { id } } })),
    // The lists only: the deleted job's own page is being left, and would refetch into a 404.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['jobs', 'list'] }),
  })
}

export type LifecycleAction = 'unassign' | 'start' | 'complete' | 'cancel'

export function useAssignJob() {
  const invalidate = useInvalidateJobs()
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & AssignBody) =>
      unwrap(api.POST('/jobs/{id}/assign', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  })
}

export function useJobTransition() {
  const invalidate = useInvalidateJobs()
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: string; action: LifecycleAction; reason?: string }) => {
      const path = { params: { path: { id } } }
      switch (action) {
        case 'unassign':
          return unwrap(api.POST('/jobs/{id}/unassign', path))
        case 'start':
          return unwrap(api.POST('/jobs/{id}/start', path))
        case 'complete':
          return unwrap(api.POST('/jobs/{id}/complete', path))
        case 'cancel':
          return unwrap(api.POST('/jobs/{id}/cancel', { ...path, body: reason ? { reason } : {} }))
      }
    },
    onSuccess: invalidate,
  })
}
