// Route plans: queue one, follow it while the optimiser runs (polled every half second), cancel or
// discard it, apply it; and the recent ones.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody, Schema } from '../../api/types'

export type RoutePlan = Schema<'RoutePlan'>
export type RoutePlanSummary = Schema<'RoutePlanSummary'>
export type PlanRequest = RequestBody<'/route-plans', 'post'>
export type PlanResult = NonNullable<RoutePlan['result']>

export const isRunning = (status: RoutePlan['status'] | undefined) =>
  status === 'QUEUED' || status === 'RUNNING'
export const RECENT_PLANS = 8

export function useRoutePlans() {
  const query = { page: 1, limit: RECENT_PLANS }
  return useQuery({
    queryKey: ['route-plans', query],
    queryFn: () => unwrap(api.GET('/route-plans', { params: { query } })),
    placeholderData: keepPreviousData,
    // While a plan runs here, its row follows it to the end.
    refetchInterval: (list) => (list.state.data?.routePlans.some((p) => isRunning(p.status)) ? 1000 : false),
  })
}

export function useRoutePlan(id: string | undefined) {
  return useQuery({
    queryKey: ['route-plans', 'one', id],
    queryFn: async () =>
      (await unwrap(api.GET('/route-plans/{id}', { params: { path: { id: id ?? '' } } }))).routePlan,
    enabled: Boolean(id),
    refetchInterval: (query) => (isRunning(query.state.data?.status) ? 500 : false),
  })
}

function useInvalidate(keys: string[]) {
  const queryClient = useQueryClient()
  return () => Promise.all(keys.map((key) => queryClient.invalidateQueries({ queryKey: [key] })))
}

export function useCreateRoutePlan() {
  const invalidate = useInvalidate(['route-plans'])
  return useMutation({
    mutationFn: async (body: PlanRequest) => (await unwrap(api.POST('/route-plans', { body }))).routePlan,
    onSuccess: invalidate,
  })
}

export function useCancelRoutePlan() {
  const invalidate = useInvalidate(['route-plans'])
  return useMutation({
    mutationFn: async (id: string) =>
      (await unwrap(api.POST('/route-plans/{id}/cancel', { params: { path: { id } } }))).routePlan,
    onSettled: invalidate,
  })
}

export function useApplyRoutePlan() {
  // Applying assigns (and may unassign) jobs: the board, its live forecast and job lists change too.
  const invalidate = useInvalidate(['route-plans', 'board', 'live', 'jobs'])
  return useMutation({
    mutationFn: async (id: string) =>
      (await unwrap(api.POST('/route-plans/{id}/apply', { params: { path: { id } } }))).routePlan,
    onSettled: invalidate,
  })
}
