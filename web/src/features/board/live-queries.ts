// The live day (GET /live): where each worker was last seen and each remaining stop's forecast. Only
// today has a live day, so the query runs only while the board shows today in the depot's zone; the
// server refreshes its ETAs every minute, so polling every 30 s (and on focus) keeps the board within
// a minute of it.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'

export const LIVE_REFRESH_MS = 30_000

export function useLiveDay(date: string, locationId: string | undefined, isToday: boolean) {
  const query = { date, ...(locationId ? { locationId } : {}) }
  return useQuery({
    queryKey: ['live', query],
    queryFn: async () => (await unwrap(api.GET('/live', { params: { query } }))).shifts,
    enabled: isToday,
    refetchInterval: isToday ? LIVE_REFRESH_MS : false,
    refetchOnWindowFocus: isToday ? 'always' : false,
  })
}
