import type { Kysely } from 'kysely'
import type { Database } from '../db/types.js'
import type { Webhooks } from '../modules/automations/webhooks.js'
import type { ApiKeyResolver } from './auth.js'

/** What every route module is registered with. */
export interface RouteOptions {
  db: Kysely<Database>
  /** The key cache, for routes whose changes must take effect on the next request. */
  apiKeys: ApiKeyResolver
  /** DEFAULT_RATE_LIMIT_PER_MINUTE: the limit of a key created without one. */
  defaultRateLimitPerMinute?: number
  /** The webhook sender, dispatcher and target policy (automation routes). */
  webhooks: Webhooks
}
