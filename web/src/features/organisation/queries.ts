import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody, Schema } from '../../api/types'
import { SESSION_QUERY_KEY } from '../../app/session'
import { MAP_TILES_QUERY_KEY } from '../map/tile-settings'

export type Organisation = Schema<'Organisation'>

export function useOrganisation() {
  return useQuery({ queryKey: ['organisation'], queryFn: () => unwrap(api.GET('/organisation')) })
}

export function useUpdateOrganisation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: RequestBody<'/organisation', 'patch'>) => unwrap(api.PATCH('/organisation', { body })),
    onSuccess: ({ organisation }) => {
      queryClient.setQueryData(['organisation'], { organisation })
      // Every map of this browser redraws on the new background at once.
      queryClient.setQueryData(MAP_TILES_QUERY_KEY, { map: organisation.map })
      // The sidebar shows the name from the session.
      return queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY })
    },
  })
}
