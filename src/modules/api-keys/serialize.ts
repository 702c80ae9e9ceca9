import type { ApiKeyRow } from '../../db/types.js'
import type { Scope } from './key.js'
import type { ApiKey } from './schemas.js'

/** Never the hash: the response schema would drop it anyway, but it should not even reach it. */
export function serializeApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    // Written only by createApiKey, from validated scopes in canonical order.
    scopes: row.scopes.split(' ') as Scope[],
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  }
}
