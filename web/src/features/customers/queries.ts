// Customers: the list (paged and searched on the server, newest first), one customer, create, edit.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody, Schema } from '../../api/types'

export type Customer = Schema<'Customer'>
export type CustomerBody = RequestBody<'/customers', 'post'>
export const PAGE_SIZE = 25

export function useCustomers(page: number, search: string | undefined, limit = PAGE_SIZE) {
  const query = { page, limit, ...(search ? { search } : {}) }
  return useQuery({
    queryKey: ['customers', 'list', query],
    queryFn: () => unwrap(api.GET('/customers', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

export function useCustomer(id: string | undefined) {
  return useQuery({
    queryKey: ['customers', 'one', id],
    queryFn: () => unwrap(api.GET('/customers/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: Boolean(id),
  })
}

function useInvalidate() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: ['customers'] })
}

export function useCreateCustomer() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: CustomerBody) => unwrap(api.POST('/customers', { body })),
    onSuccess: invalidate,
  })
}

export function useUpdateCustomer() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & RequestBody<'/customers/{id}', 'patch'>) =>
      unwrap(api.PATCH('/customers/{id}', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  })
}
