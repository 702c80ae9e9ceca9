// The fleet: depots (locations), vehicles, and the tags and capacity dimensions that jobs and
// vehicles share. Lists are paged on the server; the `all…` hooks read the first 100 for pickers.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody, Schema } from '../../api/types'

export type Depot = Schema<'Location'>
export type Vehicle = Schema<'Vehicle'>
export type Tag = Schema<'Tag'>
export type CapacityDimension = Schema<'CapacityDimension'>
export type DepotBody = RequestBody<'/locations', 'post'>
export type VehicleBody = RequestBody<'/vehicles', 'post'>
export const PAGE_SIZE = 20
/** The API's largest page: pickers offer the first 100 (an organisation with more pages the list). */
export const PICKER_LIMIT = 100

function useInvalidate(resource: string) {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: [resource] })
}

// Depots

export function useDepotPage(page: number) {
  const query = { page, limit: PAGE_SIZE }
  return useQuery({
    queryKey: ['locations', query],
    queryFn: () => unwrap(api.GET('/locations', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

export function useDepot(id: string | undefined) {
  return useQuery({
    queryKey: ['locations', 'one', id],
    queryFn: () => unwrap(api.GET('/locations/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: Boolean(id),
  })
}

export function useSaveDepot() {
  const invalidate = useInvalidate('locations')
  return useMutation({
    mutationFn: ({ id, ...body }: { id?: string } & DepotBody) =>
      unwrap(
        id
          ? api.PATCH('/locations/{id}', { params: { path: { id } }, body })
          : api.POST('/locations', { body }),
      ),
    onSuccess: invalidate,
  })
}

export function useDeleteDepot() {
  const invalidate = useInvalidate('locations')
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/locations/{id}', { params: { path: { id } } })),
    onSuccess: invalidate,
  })
}

// Vehicles

export function useVehicles(page: number, locationId?: string, limit = PAGE_SIZE) {
  const query = { page, limit, ...(locationId ? { locationId } : {}) }
  return useQuery({
    queryKey: ['vehicles', query],
    queryFn: () => unwrap(api.GET('/vehicles', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

export function useVehicle(id: string | undefined) {
  return useQuery({
    queryKey: ['vehicles', 'one', id],
    queryFn: () => unwrap(api.GET('/vehicles/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: Boolean(id),
  })
}

export function useSaveVehicle() {
  const invalidate = useInvalidate('vehicles')
  return useMutation({
    mutationFn: ({ id, ...body }: { id?: string } & VehicleBody) =>
      unwrap(
        id
          ? api.PATCH('/vehicles/{id}', { params: { path: { id } }, body })
          : api.POST('/vehicles', { body }),
      ),
    onSuccess: invalidate,
  })
}

export function useDeleteVehicle() {
  const invalidate = useInvalidate('vehicles')
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/vehicles/{id}', { params: { path: { id } } })),
    onSuccess: invalidate,
  })
}

// Tags and capacity dimensions

export function useTags(page = 1, limit = PICKER_LIMIT) {
  const query = { page, limit }
  return useQuery({
    queryKey: ['tags', query],
    queryFn: () => unwrap(api.GET('/tags', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

export function useSaveTag() {
  const invalidate = useInvalidate('tags')
  return useMutation({
    mutationFn: ({ id, name }: { id?: string; name: string }) =>
      unwrap(
        id
          ? api.PATCH('/tags/{id}', { params: { path: { id } }, body: { name } })
          : api.POST('/tags', { body: { name } }),
      ),
    onSuccess: invalidate,
  })
}

export function useDeleteTag() {
  const invalidate = useInvalidate('tags')
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/tags/{id}', { params: { path: { id } } })),
    onSuccess: invalidate,
  })
}

export function useCapacityDimensions(page = 1, limit = PICKER_LIMIT) {
  const query = { page, limit }
  return useQuery({
    queryKey: ['capacity-dimensions', query],
    queryFn: () => unwrap(api.GET('/capacity-dimensions', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

export function useSaveCapacityDimension() {
  const invalidate = useInvalidate('capacity-dimensions')
  return useMutation({
    mutationFn: ({ id, ...body }: { id?: string; key: string; label: string }) =>
      unwrap(
        id
          ? api.PATCH('/capacity-dimensions/{id}', { params: { path: { id } }, body })
          : api.POST('/capacity-dimensions', { body }),
      ),
    onSuccess: invalidate,
  })
}

export function useDeleteCapacityDimension() {
  const invalidate = useInvalidate('capacity-dimensions')
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/capacity-dimensions/{id}', { params: { path: { id } } })),
    onSuccess: invalidate,
  })
}
