// What an API key is (spec §5): `svc_live_` + a random secret, a set of scopes and a rate limit. The
// schemas, the serializer and the service all build on these; none of them is needed to state them.

export const KEY_PREFIX = 'svc_live_'
/** A well-formed key: the prefix and at least 32 base62 characters. */
export const KEY_PATTERN = /^svc_live_[0-9A-Za-z]{32,128}$/

export type Scope = 'read' | 'write' | 'admin'
export const SCOPES: readonly Scope[] = ['read', 'write', 'admin']
export const MAX_RATE_LIMIT_PER_MINUTE = 100_000_000

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}

/** The scopes of a stored key (space-separated); anything unknown is dropped. */
export function parseScopes(value: string): Scope[] {
  return value.split(' ').filter(isScope)
}
