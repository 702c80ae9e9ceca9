// The board's data: one call for the day (rows, their jobs, the waiting jobs), refreshed when the
// window regains focus, every 30 seconds, and after every change; assigning and unassigning go
// through the job lifecycle routes.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody } from '../../api/types'

export const BOARD_REFRESH_MS = 30_000

export function useBoard(date: string, locationId: string | undefined) {
  const query = { date, ...(locationId ? { locationId } : {}) }
  return useQuery({
    queryKey: ['board', query],
    queryFn: async () => (await unwrap(api.GET('/board', { params: { query } }))).board,
    placeholderData: keepPreviousData,
    refetchInterval: BOARD_REFRESH_MS,
    refetchOnWindowFocus: 'always',
  })
}

export type Assignment = RequestBody<'/jobs/{id}/assign', 'post'>

/** After any change to jobs: the board, its live forecast and job lists all show them. */
function useJobsChanged() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['board'] }),
      queryClient.invalidateQueries({ queryKey: ['live'] }),
      queryClient.invalidateQueries({ queryKey: ['jobs'] }),
    ])
}

export function useAssignJob() {
  const changed = useJobsChanged()
  return useMutation({
    mutationFn: ({ id, assignment }: { id: string; assignment: Assignment }) =>
      unwrap(api.POST('/jobs/{id}/assign', { params: { path: { id } }, body: assignment })),
    onSettled: changed,
  })
}

export function useUnassignJob() {
  const changed = useJobsChanged()
  return useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/jobs/{id}/unassign', { params: { path: { id } } })),
    onSettled: changed,
  })
}
