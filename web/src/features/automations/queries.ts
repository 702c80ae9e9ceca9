// Automations: list, one, create, edit, activate/deactivate, rotate the signing secret, send a test
// event, delete. Every write refreshes the automation lists (and the logs, for a test event).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { QueryParams, RequestBody, Schema } from '../../api/types'
import { allPages, type CsvColumn } from '../../lib/csv'

export type Automation = Schema<'Automation'>
export type AutomationFilters = Omit<QueryParams<'/automations'>, 'page' | 'limit'>
export const PAGE_SIZE = 20

export function useAutomations(page: number, filters: AutomationFilters, limit = PAGE_SIZE) {
  const query = { page, limit, ...filters }
  return useQuery({
    queryKey: ['automations', 'list', query],
    queryFn: () => unwrap(api.GET('/automations', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

/** Every automation the list's filters show (all its pages), for Download CSV. */
export const allAutomations = (filters: AutomationFilters) =>
  allPages(async (page) => {
    const query = { page, limit: 100, ...filters }
    const { automations, pagination } = await unwrap(api.GET('/automations', { params: { query } }))
    return { items: automations, total: pagination.total }
  })

/** The endpoint's host only: a webhook URL's path or query often is itself a credential (Slack-style). */
export const AUTOMATION_CSV: CsvColumn<Automation>[] = [
  { header: 'id', value: (a) => a.id },
  { header: 'name', value: (a) => a.name },
  { header: 'event', value: (a) => a.event },
  { header: 'action', value: (a) => a.action },
  { header: 'endpointHost', value: (a) => hostOf(a.url) },
  { header: 'isActive', value: (a) => a.isActive },
  { header: 'createdAt', value: (a) => a.createdAt },
  { header: 'updatedAt', value: (a) => a.updatedAt },
]

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return ''
  }
}

export function useAutomation(id: string) {
  return useQuery({
    queryKey: ['automations', 'one', id],
    queryFn: () => unwrap(api.GET('/automations/{id}', { params: { path: { id } } })),
  })
}

function useInvalidate() {
  const queryClient = useQueryClient()
  return (extra: string[] = []) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['automations'] }),
      ...extra.map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
    ])
}

export function useCreateAutomation() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: RequestBody<'/automations', 'post'>) => unwrap(api.POST('/automations', { body })),
    onSuccess: () => invalidate(),
  })
}

export function useUpdateAutomation(id: string) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: RequestBody<'/automations/{id}', 'patch'>) =>
      unwrap(api.PATCH('/automations/{id}', { params: { path: { id } }, body })),
    onSuccess: () => invalidate(),
  })
}

export function useSetAutomationActive() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      unwrap(
        active
          ? api.POST('/automations/{id}/activate', { params: { path: { id } } })
          : api.POST('/automations/{id}/deactivate', { params: { path: { id } } }),
      ),
    onSuccess: () => invalidate(),
  })
}

export function useRotateSecret(id: string) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (gracePeriodSeconds: number) =>
      unwrap(
        api.POST('/automations/{id}/rotate-secret', {
          params: { path: { id } },
          body: { gracePeriodSeconds },
        }),
      ),
    onSuccess: () => invalidate(),
  })
}

export function useSendTestEvent(id: string) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: () => unwrap(api.POST('/automations/{id}/test', { params: { path: { id } } })),
    onSuccess: () => invalidate(['executions']),
  })
}

export function useDeleteAutomation() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/automations/{id}', { params: { path: { id } } })),
    onSuccess: () => invalidate(['executions']),
  })
}
