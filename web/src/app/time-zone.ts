// The organisation's time zone: its primary depot's (depots carry the IANA zone the business runs
// on), else its first depot's, else the browser's. Settings pages show times in it; the board and
// plans use each depot's own zone.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { BROWSER_TIME_ZONE } from '../lib/time'

export function useDepots() {
  return useQuery({
    queryKey: ['locations', { page: 1, limit: 100 }],
    queryFn: () => unwrap(api.GET('/locations', { params: { query: { page: 1, limit: 100 } } })),
    staleTime: 5 * 60_000,
  })
}

export function useTimeZone(): string {
  const { data } = useDepots()
  const depots = data?.locations ?? []
  const depot = depots.find((d) => d.isPrimary) ?? depots[0]
  return depot?.timezone ?? BROWSER_TIME_ZONE
}
