// What every route module is registered with: the services app.ts builds once per app (src/services.ts)
// and hands to the routes of both APIs.
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import type { Database } from '../db/types.js'
import type { AttachmentSettings } from './attachments/service.js'
import type { ApiKeyResolver, Dashboard } from './auth/index.js'
import type { Webhooks } from './automations/webhooks.js'
import type { Geocoder } from './geocoding/geocoder.js'
import type { LiveRefresher } from './live/refresher.js'
import type { PlanRunner } from './route-plans/runner.js'
import type { TravelTimes } from './travel/travel-times.js'

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
  /** The server's "now" (ETAs, shifts, positions, the instant a plan of today starts from). */
  clock: Clock
  /** The live day's ETA refresher and its settings. */
  live: LiveRefresher
  /** SERIES_HORIZON_DAYS: a job series' occurrences become jobs this many days ahead. */
  seriesHorizonDays: number
  /** PUBLIC_BASE_URL: where tracking links point. */
  publicBaseUrl: string
  /** Whether SMTP_URL is set: customer emails can be sent (GET /organisation says so). */
  smtpConfigured: boolean
  /** Where attachment content is kept (ATTACHMENT_STORE) and the default quota (ATTACHMENT_QUOTA_BYTES). */
  attachments: AttachmentSettings
  /** Travel matrices: road times when ROUTING_OSRM_URL is set, else straight lines. */
  travelTimes: TravelTimes
  /** The address lookup (GEOCODER_URL); absent when the service has none. */
  geocoder?: Geocoder
}
