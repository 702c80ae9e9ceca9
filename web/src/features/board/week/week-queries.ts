// The week view's data: one call for the seven days (GET /board/week), under the board's query key so
// that any change to jobs refreshes it; a move is a POST /jobs/:id/assign like every assignment.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../../api/client'
import { BOARD_REFRESH_MS } from '../queries'
import type { Placement } from './week-model'

export function useWeekBoard(start: string, locationId: string | undefined) {
  const query = { start, ...(locationId ? { locationId } : {}) }
  return useQuery({
    queryKey: ['board', 'week', query],
    queryFn: async () => (await unwrap(api.GET('/board/week', { params: { query } }))).week,
    placeholderData: keepPreviousData,
    refetchInterval: BOARD_REFRESH_MS,
    refetchOnWindowFocus: 'always',
  })
}

export function useMoveJob() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ jobId, placement }: { jobId: string; placement: Placement }) =>
      unwrap(
        api.POST('/jobs/{id}/assign', {
          params: { path: { id: jobId } },
          body: {
            userId: placement.userId,
            shiftId: placement.shiftId,
            scheduledStart: new Date(placement.start).toISOString(),
            scheduledEnd: new Date(placement.end).toISOString(),
          },
        }),
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['board'] }),
        queryClient.invalidateQueries({ queryKey: ['live'] }),
        queryClient.invalidateQueries({ queryKey: ['jobs'] }),
      ]),
  })
}
