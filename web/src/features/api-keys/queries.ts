// API keys: the list (server-paged), create, revoke and rotate. Writes refresh every list.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody, Schema } from '../../api/types'
import { allPages, type CsvColumn } from '../../lib/csv'

export type ApiKey = Schema<'ApiKey'>
export type ApiKeyScope = ApiKey['scopes'][number]
export const PAGE_SIZE = 20

export function useApiKeys(page: number, includeRevoked: boolean) {
  const query = { page, limit: PAGE_SIZE, includeRevoked }
  return useQuery({
    queryKey: ['api-keys', query],
    queryFn: () => unwrap(api.GET('/api-keys', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

/** Every key the list's filter shows (all its pages), for Download CSV. */
export const allApiKeys = (includeRevoked: boolean) =>
  allPages(async (page) => {
    const query = { page, limit: 100, includeRevoked }
    const { apiKeys, pagination } = await unwrap(api.GET('/api-keys', { params: { query } }))
    return { items: apiKeys, total: pagination.total }
  })

/** Names, scopes and dates only: a download is shared more freely than the screen (no key material). */
export const API_KEY_CSV: CsvColumn<ApiKey>[] = [
  { header: 'id', value: (k) => k.id },
  { header: 'name', value: (k) => k.name },
  { header: 'scopes', value: (k) => k.scopes.join(' ') },
  { header: 'rateLimitPerMinute', value: (k) => k.rateLimitPerMinute },
  { header: 'createdAt', value: (k) => k.createdAt },
  { header: 'lastUsedAt', value: (k) => k.lastUsedAt },
  { header: 'expiresAt', value: (k) => k.expiresAt },
  { header: 'revokedAt', value: (k) => k.revokedAt },
]

function useInvalidateKeys() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: ['api-keys'] })
}

export type CreateApiKeyInput = RequestBody<'/api-keys', 'post'>

export function useCreateApiKey() {
  const invalidate = useInvalidateKeys()
  return useMutation({
    mutationFn: (body: CreateApiKeyInput) => unwrap(api.POST('/api-keys', { body })),
    onSuccess: invalidate,
  })
}

export function useRevokeApiKey() {
  const invalidate = useInvalidateKeys()
  return useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api-keys/{id}/revoke', { params: { path: { id } } })),
    onSuccess: invalidate,
  })
}

export function useRotateApiKey() {
  const invalidate = useInvalidateKeys()
  return useMutation({
    mutationFn: ({ id, gracePeriodSeconds }: { id: string; gracePeriodSeconds: number }) =>
      unwrap(api.POST('/api-keys/{id}/rotate', { params: { path: { id } }, body: { gracePeriodSeconds } })),
    onSuccess: invalidate,
  })
}

export type KeyStatus = 'active' | 'expiring' | 'expired' | 'revoked'

const SOON_MS = 7 * 86_400_000

export function keyStatus(key: ApiKey, now: number = Date.now()): KeyStatus {
  if (key.revokedAt !== null) return 'revoked'
  if (key.expiresAt === null) return 'active'
  const left = Date.parse(key.expiresAt) - now
  if (left <= 0) return 'expired'
  return left < SOON_MS ? 'expiring' : 'active'
}
