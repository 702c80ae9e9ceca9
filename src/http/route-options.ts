import type { Kysely } from 'kysely'
import type { Database } from '../db/types.js'
import type { ApiKeyResolver } from './auth.js'

/** What every route module is registered with. */
export interface RouteOptions {
  db: Kysely<Database>
  /** The key cache, for routes whose changes must take effect on the next request. */
  apiKeys: ApiKeyResolver
}
