import type { Kysely } from 'kysely'
import type { Database } from '../db/types.js'
import type { Webhooks } from '../modules/automations/webhooks.js'
import type { PlanRunner } from '../modules/route-plans/runner.js'
import type { ScryptParams } from '../modules/sessions/passwords.js'
import type { Sessions } from '../modules/sessions/service.js'
import type { SignIn } from '../modules/sessions/sign-in.js'
import type { ApiKeyResolver } from './auth.js'
import type { IpLimit } from './ip-rate-limit.js'
import type { SessionCookies } from './session-auth.js'

/** Dashboard sign-in: what the session routes and the password route use. */
export interface Dashboard {
  sessions: Sessions
  signIn: SignIn
  cookies: SessionCookies
  /** The scrypt parameters new password hashes get. */
  passwordParams: ScryptParams
  /** The per-IP limit of routes that need no key (IP_RATE_LIMIT_PER_MINUTE): signing in needs none. */
  ipLimit?: IpLimit
}

/** What every route module is registered with. */
export interface RouteOptions {
  db: Kysely<Database>
  /** The key cache, for routes whose changes must take effect on the next request. */
  apiKeys: ApiKeyResolver
  /** DEFAULT_RATE_LIMIT_PER_MINUTE: the limit of a key created without one. */
  defaultRateLimitPerMinute?: number
  /** The webhook sender, dispatcher and target policy (automation routes). */
  webhooks: Webhooks
  /** This process's route plan runner, nudged when a plan is queued; absent when PLAN_WORKERS=0. */
  planRunner?: PlanRunner
  /** ROUTE_PLAN_QUEUE_MAX: QUEUED and RUNNING plans an organisation may have at once; 0: no cap. */
  routePlanQueueMax: number
  /** Sessions and passwords (admin API). */
  dashboard?: Dashboard
}
