// Form templates (Settings › Form templates, ADMIN): list, create, edit, activate/deactivate, delete;
// and the organisation's tags, for "jobs with this tag". Every write refreshes the lists.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody } from '../../api/types'

export type { FormField, FormTemplate } from '../my/types'

export const PAGE_SIZE = 20

export type TemplateBody = RequestBody<'/form-templates', 'post'>

export function useFormTemplates(page: number) {
  const query = { page, limit: PAGE_SIZE }
  return useQuery({
    queryKey: ['form-templates', 'list', query],
    queryFn: () => unwrap(api.GET('/form-templates', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

export function useTags() {
  const query = { page: 1, limit: 100 }
  return useQuery({
    queryKey: ['tags', query],
    queryFn: () => unwrap(api.GET('/tags', { params: { query } })),
    staleTime: 60_000,
  })
}

function useInvalidate() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: ['form-templates'] })
}

export function useCreateFormTemplate() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: TemplateBody) => unwrap(api.POST('/form-templates', { body })),
    onSuccess: invalidate,
  })
}

export function useUpdateFormTemplate() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: RequestBody<'/form-templates/{id}', 'patch'> }) =>
      unwrap(api.PATCH('/form-templates/{id}', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  })
}

export function useDeleteFormTemplate() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/form-templates/{id}', { params: { path: { id } } })),
    onSuccess: invalidate,
  })
}
