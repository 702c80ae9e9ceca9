// Form templates (Settings › Form templates, ADMIN): list, create, edit, activate/deactivate, delete;
// and the organisation's tags, for "jobs with this tag". Every write refreshes the lists.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody } from '../../api/types'
import { allPages, type CsvColumn } from '../../lib/csv'
import type { FormTemplate } from '../my/types'

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

/** Every template (all pages), for Download CSV. */
export const allFormTemplates = () =>
  allPages(async (page) => {
    const query = { page, limit: 100 }
    const { formTemplates, pagination } = await unwrap(api.GET('/form-templates', { params: { query } }))
    return { items: formTemplates, total: pagination.total }
  })

/** One row per template; its fields as their labels (the full definitions stay in the API). */
export const FORM_TEMPLATE_CSV: CsvColumn<FormTemplate>[] = [
  { header: 'id', value: (t) => t.id },
  { header: 'name', value: (t) => t.name },
  { header: 'description', value: (t) => t.description },
  { header: 'appliesTo', value: (t) => t.appliesTo },
  { header: 'tagId', value: (t) => t.tagId },
  { header: 'fields', value: (t) => t.fields.map((field) => field.label).join('; ') },
  { header: 'isActive', value: (t) => t.isActive },
  { header: 'createdAt', value: (t) => t.createdAt },
  { header: 'updatedAt', value: (t) => t.updatedAt },
]

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
