// The one query cache. Lists refetch when the window regains focus; failed reads are retried once,
// except for answers a retry cannot change (4xx).
import { QueryClient } from '@tanstack/react-query'
import { ApiError } from './errors'

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (failures, error) =>
          failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  })
}
