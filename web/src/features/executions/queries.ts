// Webhook executions: the log across the organisation or of one automation (server-paged, filtered
// by status and event), one execution, and redelivery.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { QueryParams, Schema } from '../../api/types'

export type Execution = Schema<'WebhookExecution'>
export type ExecutionFilters = Omit<QueryParams<'/executions'>, 'page' | 'limit'>
export const PAGE_SIZE = 25

export function useExecutions(page: number, filters: ExecutionFilters) {
  const query = { page, limit: PAGE_SIZE, ...filters }
  return useQuery({
    queryKey: ['executions', 'list', query],
    queryFn: () => unwrap(api.GET('/executions', { params: { query } })),
    placeholderData: keepPreviousData,
    // A delivery in flight settles within seconds: look again until none is PENDING.
    refetchInterval: (q) => (q.state.data?.executions.some((e) => e.status === 'PENDING') ? 2000 : false),
  })
}

export function useExecution(automationId: string | undefined, executionId: string | undefined) {
  return useQuery({
    queryKey: ['executions', 'one', automationId, executionId],
    queryFn: () =>
      unwrap(
        api.GET('/automations/{id}/executions/{executionId}', {
          params: { path: { id: automationId ?? '', executionId: executionId ?? '' } },
        }),
      ),
    enabled: Boolean(automationId && executionId),
    refetchInterval: (q) => (q.state.data?.execution.status === 'PENDING' ? 2000 : false),
  })
}

export function useRedeliver() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ automationId, executionId }: { automationId: string; executionId: string }) =>
      unwrap(
        api.POST('/automations/{id}/executions/{executionId}/redeliver', {
          params: { path: { id: automationId, executionId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['executions'] }),
  })
}
