// The week view's data: one call for the seven days (GET /board/week), under the board's query key so
// that any change to jobs refreshes it; a move is the day board's assignment (useAssignJob).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../../../api/client'
import { BOARD_REFRESH_MS } from '../queries'

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
