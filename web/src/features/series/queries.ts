// Job series: the list, one series (with its next occurrences), its generated jobs, and the writes —
// create, change (only future occurrences, or also the jobs already made), end, skip or move one
// occurrence. A write refreshes the series and every job list (occurrences become or stop being jobs).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody, Schema } from '../../api/types'
import { allPages, type CsvColumn } from '../../lib/csv'

export type SeriesListed = Schema<'JobSeriesListed'>
export type SeriesDetail = Schema<'JobSeriesDetail'>
export type SeriesJob = Schema<'JobSeriesJob'>
export type Occurrence = Schema<'SeriesOccurrence'>
export type CreateSeriesBody = RequestBody<'/job-series', 'post'>
export type UpdateSeriesBody = RequestBody<'/job-series/{id}', 'patch'>
export type SeriesTemplate = Schema<'JobTemplate'>
export const SERIES_PAGE_SIZE = 25
export const SERIES_JOBS_PAGE_SIZE = 10

export function useSeriesList(page: number) {
  const query = { page, limit: SERIES_PAGE_SIZE }
  return useQuery({
    queryKey: ['job-series', 'list', query],
    queryFn: () => unwrap(api.GET('/job-series', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

/** Every series, for the list's CSV. */
export const allSeries = () =>
  allPages(async (page) => {
    const { series, pagination } = await unwrap(
      api.GET('/job-series', { params: { query: { page, limit: 100 } } }),
    )
    return { items: series, total: pagination.total }
  })

export const SERIES_CSV: CsvColumn<SeriesListed>[] = [
  { header: 'id', value: (s) => s.id },
  { header: 'title', value: (s) => s.job.title },
  { header: 'customerId', value: (s) => s.job.customerId },
  { header: 'rule', value: (s) => s.rrule },
  { header: 'startDate', value: (s) => s.startDate },
  { header: 'endDate', value: (s) => s.endDate },
  { header: 'nextDate', value: (s) => s.nextDate },
  { header: 'timeZone', value: (s) => s.timeZone },
  { header: 'createdAt', value: (s) => s.createdAt },
]

export function useSeries(id: string | null | undefined) {
  return useQuery({
    queryKey: ['job-series', 'one', id],
    queryFn: () => unwrap(api.GET('/job-series/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: Boolean(id),
  })
}

export function useSeriesJobs(id: string, page: number, limit = SERIES_JOBS_PAGE_SIZE, enabled = true) {
  const query = { page, limit }
  return useQuery({
    queryKey: ['job-series', 'jobs', id, query],
    queryFn: () => unwrap(api.GET('/job-series/{id}/jobs', { params: { path: { id }, query } })),
    placeholderData: keepPreviousData,
    enabled,
  })
}

function useInvalidate() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['job-series'] }),
      queryClient.invalidateQueries({ queryKey: ['jobs'] }),
    ])
}

export function useCreateSeries() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: CreateSeriesBody) => unwrap(api.POST('/job-series', { body })),
    onSuccess: invalidate,
  })
}

export function useUpdateSeries() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateSeriesBody }) =>
      unwrap(api.PATCH('/job-series/{id}', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  })
}

export function useEndSeries() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, lastDate }: { id: string; lastDate: string }) =>
      unwrap(api.POST('/job-series/{id}/end', { params: { path: { id } }, body: { lastDate } })),
    onSuccess: invalidate,
  })
}

export function useSkipOccurrence() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, date }: { id: string; date: string }) =>
      unwrap(api.POST('/job-series/{id}/occurrences/{date}/skip', { params: { path: { id, date } } })),
    onSuccess: invalidate,
  })
}

export function useMoveOccurrence() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, date, to }: { id: string; date: string; to: string }) =>
      unwrap(
        api.POST('/job-series/{id}/occurrences/{date}/move', {
          params: { path: { id, date } },
          body: { date: to },
        }),
      ),
    onSuccess: invalidate,
  })
}
