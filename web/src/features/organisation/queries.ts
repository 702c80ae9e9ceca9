import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody } from '../../api/types'
import { SESSION_QUERY_KEY } from '../../app/session'

export function useOrganisation() {
  return useQuery({ queryKey: ['organisation'], queryFn: () => unwrap(api.GET('/organisation')) })
}

export function useUpdateOrganisation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: RequestBody<'/organisation', 'patch'>) => unwrap(api.PATCH('/organisation', { body })),
    onSuccess: ({ organisation }) => {
      queryClient.setQueryData(['organisation'], { organisation })
      // The sidebar shows the name from the session.
      return queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY })
    },
  })
}
