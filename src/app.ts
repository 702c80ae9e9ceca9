import cookie from '@fastify/cookie'
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { type Config, DEFAULT_IP_RATE_LIMIT_PER_MINUTE } from './config.js'
import type { Dialect } from './db/database.js'
import {
  appendAccessCheck,
  documentCsrfErrors,
  installAuthentication,
  withSessionAccess,
} from './http/authentication.js'
import { installCompression } from './http/compression.js'
import { installDashboard } from './http/dashboard.js'
import { installErrorHandling } from './http/error-handler.js'
import { installEtags } from './http/etags.js'
import { fastifyOptions, serverLimitsOf } from './http/fastify-options.js'
import { installIdempotency } from './http/idempotency.js'
import { installIpRateLimit } from './http/ip-rate-limit.js'
import { installJsonParser } from './http/json-body.js'
import { installLandingPage } from './http/landing-page.js'
import { DEFAULT_CHANGE_SETTLE_MS } from './http/list-order.js'
import { ADMIN_PREFIX, installOpenApi, PUBLIC_PREFIX } from './http/openapi.js'
import { installOptionalBodies } from './http/optional-body.js'
import { installDocsRoutes } from './http/playground.js'
import { installRateLimit, RateLimits } from './http/rate-limit.js'
import { installRequestDatabase } from './http/request-database.js'
import { ErrorBody } from './http/schemas.js'
import { installResponseHeaders } from './http/security-headers.js'
import { capConnections, type ServerLimits } from './http/server-limits.js'
import { installUnroutedAnswers } from './http/unrouted.js'
import { installValidators } from './http/validation.js'
import { apiKeyAdminRoutes } from './modules/api-keys/admin-routes.js'
import { archiveAdminRoutes } from './modules/archive/admin-routes.js'
import { attachmentAdminRoutes } from './modules/attachments/admin-routes.js'
import { myAttachmentRoutes } from './modules/attachments/my-routes.js'
import { attachmentRoutes } from './modules/attachments/routes.js'
import {
  type ApiKeyResolver,
  adminScope,
  publicScope,
  type Scope,
  type SessionAccess,
  type SessionLogin,
} from './modules/auth/index.js'
import { automationAdminRoutes } from './modules/automations/admin-routes.js'
import { executionAdminRoutes } from './modules/automations/execution-routes.js'
import type { Webhooks } from './modules/automations/webhooks.js'
import { boardAdminRoutes } from './modules/board/admin-routes.js'
import { bookingRoutes } from './modules/bookings/routes.js'
import { completionAdminRoutes, myCompletionRoutes } from './modules/completion/admin-routes.js'
import { customerMessageAdminRoutes } from './modules/customer-messages/admin-routes.js'
import { customerAdminRoutes } from './modules/customers/admin-routes.js'
import { customerRoutes } from './modules/customers/routes.js'
import { eventFeedRoutes } from './modules/events/feed.js'
import { EVENT_DESCRIPTIONS, EVENT_PAYLOADS, EVENT_TYPES } from './modules/events/schemas.js'
import { formTemplateAdminRoutes } from './modules/form-templates/admin-routes.js'
import { formAdminRoutes } from './modules/forms/admin-routes.js'
import { geocodingAdminRoutes } from './modules/geocoding/admin-routes.js'
import { importAdminRoutes } from './modules/imports/admin-routes.js'
import { jobSeriesAdminRoutes } from './modules/job-series/admin-routes.js'
import type { SeriesGenerator } from './modules/job-series/generator.js'
import { jobAdminRoutes } from './modules/jobs/admin-routes.js'
import { jobRoutes } from './modules/jobs/routes.js'
import { liveAdminRoutes, livePositionRoutes } from './modules/live/admin-routes.js'
import type { LiveRefresher } from './modules/live/refresher.js'
import { locationAdminRoutes } from './modules/locations/admin-routes.js'
import { locationRoutes } from './modules/locations/routes.js'
import { myDayRoutes } from './modules/my-day/routes.js'
import { organisationAdminRoutes } from './modules/organisations/admin-routes.js'
import { teamAdminRoutes } from './modules/organisations/team-admin-routes.js'
import { proofAdminRoutes, proofRoutes } from './modules/proof/routes.js'
import { capacityDimensionAdminRoutes, tagAdminRoutes } from './modules/reference-data/admin-routes.js'
import type { RouteOptions } from './modules/route-options.js'
import { routePlanAdminRoutes } from './modules/route-plans/admin-routes.js'
import { searchAdminRoutes } from './modules/search/admin-routes.js'
import { sessionAdminRoutes } from './modules/sessions/admin-routes.js'
import { absenceAdminRoutes } from './modules/shifts/absences-routes.js'
import { shiftAdminRoutes } from './modules/shifts/admin-routes.js'
import { shiftRoutes } from './modules/shifts/routes.js'
import { trackingRoutes } from './modules/tracking/routes.js'
import { keptPositions, type PositionSource } from './modules/tracking/service.js'
import { vehicleAdminRoutes } from './modules/vehicles/admin-routes.js'
import { vehicleRoutes } from './modules/vehicles/routes.js'
import { installHealthRoutes } from './ops/health.js'
import { Lifecycle } from './ops/lifecycle.js'
import { ServiceMetrics } from './ops/metrics.js'
import { buildServices, type ServiceDeps } from './services.js'

export interface AppDeps extends ServiceDeps {
  dialect: Dialect
  config: ServiceDeps['config'] &
    Pick<Config, 'bodyLimitBytes'> &
    Partial<
      Pick<Config, 'redisUrl' | 'redisKeyPrefix' | 'ipRateLimitPerMinute' | 'trustProxy' | 'changeSettleMs'>
    > &
    Partial<ServerLimits>
  logger?: FastifyServerOptions['logger']
  /**
   * The built web dashboard to serve at `/` (the server passes dist/web). Left out, or not built
   * there, `/` answers a landing page: tests see the same app whether or not dist/web exists.
   */
  dashboardDir?: string
  /**
   * Where the tracking page finds a worker's latest position; by default the positions table
   * (a position older than 15 minutes is not shown). Tests pass their own.
   */
  positions?: PositionSource
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhook sender and dispatcher this app runs (started when the app is ready). */
    webhooks: Webhooks
    /** The live day's ETA refresher (its minute's tick under a lease; woken by job writes). */
    live: LiveRefresher
    /** Job series' occurrences made jobs up to the horizon (its hourly tick under a lease). */
    series: SeriesGenerator
    /** The rate-limit store both APIs share (its status feeds /readyz and /metrics). */
    rateLimits: RateLimits
    /** serving → draining → closing: drives /readyz and `connection: close` during shutdown. */
    lifecycle: Lifecycle
    /** This app's Prometheus registry (served on METRICS_PORT by server.ts, not by the app). */
    metrics: ServiceMetrics
    /** How long the change feeds hold back the newest changes (CHANGE_FEED_SETTLE_MS). */
    changeSettleMs: number
  }
}

export type App = FastifyInstance

/** Writes to these routes can move a day's ETAs (positions recompute their own worker at once). */
const MOVES_ETAS = ['/jobs', '/route-plans', '/shifts', '/customers']

export async function buildApp(deps: AppDeps): Promise<App> {
  const limits = serverLimitsOf(deps.config)
  const app = Fastify(fastifyOptions(limits, deps)).withTypeProvider<TypeBoxTypeProvider>()
  capConnections(app.server, limits, app.log)

  // 1. Input: strict body validation, coerced query strings, our JSON parser.
  installValidators(app)
  installJsonParser(app, deps.config.bodyLimitBytes)
  installOptionalBodies(app)
  // The database as route modules see it: the request's transaction when an idempotent request has
  // one (http/request-database.ts). Before any request hook, so every later one runs in its scope.
  const requestDb = installRequestDatabase(app, deps.db)
  // 2. Output: one error handler for every route.
  installErrorHandling(app)
  app.addSchema(ErrorBody)
  // Every answer, errors included: its request id and the security headers of a JSON API, and
  // `connection: close` once shutting down; a URL with %00 is refused (security-headers.ts).
  const lifecycle = new Lifecycle()
  app.decorate('lifecycle', lifecycle)
  app.decorate('changeSettleMs', deps.config.changeSettleMs ?? DEFAULT_CHANGE_SETTLE_MS)
  installResponseHeaders(app, lifecycle)
  // Rate limits: one store (Redis when REDIS_URL is set) for the per-key limits of both APIs and the
  // per-IP limit of everything that needs no key.
  const rateLimits = new RateLimits(deps.config.redisUrl, app.log, { keyPrefix: deps.config.redisKeyPrefix })
  app.decorate('rateLimits', rateLimits)
  app.addHook('onClose', async () => rateLimits.close())
  const ipLimit = await installIpRateLimit(
    app,
    rateLimits,
    deps.config.ipRateLimitPerMinute ?? DEFAULT_IP_RATE_LIMIT_PER_MINUTE,
  )
  // Requests no route takes (404, 405, OPTIONS) are answered here, under the per-IP limit, with the
  // headers above and before their body is read. Registered before any route: it records every
  // route's path and methods.
  installUnroutedAnswers(app, ipLimit)
  // 3. OpenAPI collection must be registered before the routes it describes.
  await installOpenApi(app, {
    types: EVENT_TYPES,
    descriptions: EVENT_DESCRIPTIONS,
    payloads: EVENT_PAYLOADS,
  })

  // 4. The services the routes use (webhooks, plan runner, key cache, dashboard sign-in: services.ts).
  const {
    routeOptions: options,
    login,
    webhooks,
    live,
    series,
  } = buildServices(app, deps, requestDb, rateLimits, ipLimit)
  app.decorate('webhooks', webhooks)
  app.decorate('live', live)
  app.decorate('series', series)
  // Metrics: requests are counted in the same onResponse hook (by route pattern, never the URL);
  // everything else is read when /metrics is scraped.
  const metrics = new ServiceMetrics({
    db: deps.db,
    rateLimitStatus: () => app.rateLimits.status(),
    webhookResults: () => webhooks.sender.results,
  })
  app.decorate('metrics', metrics)
  app.addHook('onResponse', (request, reply, done) => {
    const method = request.method
    metrics.requests.record(request.routeOptions.url, method, reply.statusCode, reply.elapsedTime)
    if (method !== 'GET' && reply.statusCode < 400) {
      webhooks.dispatcher.wake()
      // A job written (started, completed, assigned, changed, planned), a shift or a customer's hours
      // changed: the day's ETAs move.
      const url = request.routeOptions.url ?? ''
      const organisationId = request.auth?.organisationId
      if (organisationId && MOVES_ETAS.some((part) => url.includes(part))) live.wake(organisationId)
    }
    done()
  })

  // 5. The two APIs: authentication → per-key rate limit → plan and scope checks → routes.
  // Idempotency-Key on every write of both APIs (its handler runs in the transaction that stores the
  // answer); before it, If-Match, so an idempotent request's transaction holds that check too.
  installEtags(app, requestDb)
  installIdempotency(app, { db: deps.db })
  // Compressed answers (brotli or gzip, by Accept-Encoding): after the two above, so their onSend
  // hooks see the body as written (compression.ts).
  installCompression(app)
  const apiKeys = options.apiKeys
  await registerApi(app, apiKeys, rateLimits, PUBLIC_PREFIX, publicScope, async (api) => {
    await api.register(jobRoutes, options)
    await api.register(bookingRoutes, options)
    await api.register(customerRoutes, options)
    await api.register(vehicleRoutes, options)
    await api.register(locationRoutes, options)
    await api.register(shiftRoutes, options)
    await api.register(eventFeedRoutes, options)
    await api.register(attachmentRoutes, options)
    await api.register(proofRoutes, options)
  })
  // The admin API also takes a dashboard session (cookie + CSRF token). Which sessions each module
  // admits (modules/auth/access.ts): single routes may say otherwise (organisation PATCH and team changes: ADMIN).
  const adminModules: [SessionAccess, FastifyPluginAsyncTypebox<RouteOptions>][] = [
    ['session', sessionAdminRoutes],
    ['dispatch', organisationAdminRoutes],
    ['dispatch', teamAdminRoutes],
    ['dispatch', tagAdminRoutes],
    ['dispatch', capacityDimensionAdminRoutes],
    ['dispatch', locationAdminRoutes],
    ['dispatch', vehicleAdminRoutes],
    ['dispatch', shiftAdminRoutes],
    ['dispatch', absenceAdminRoutes],
    ['dispatch', jobAdminRoutes],
    ['dispatch', jobSeriesAdminRoutes],
    ['dispatch', attachmentAdminRoutes],
    ['dispatch', customerAdminRoutes],
    ['dispatch', importAdminRoutes],
    ['dispatch', searchAdminRoutes],
    ['dispatch', geocodingAdminRoutes],
    ['dispatch', formAdminRoutes],
    ['dispatch', completionAdminRoutes],
    ['dispatch', proofAdminRoutes],
    ['admin', formTemplateAdminRoutes],
    ['worker', myDayRoutes],
    ['worker', myAttachmentRoutes],
    ['worker', myCompletionRoutes],
    ['worker', livePositionRoutes],
    ['dispatch', liveAdminRoutes],
    ['dispatch', routePlanAdminRoutes],
    ['dispatch', boardAdminRoutes],
    ['pro-admin', apiKeyAdminRoutes],
    ['pro-admin', automationAdminRoutes],
    ['pro-admin', executionAdminRoutes],
    ['admin', customerMessageAdminRoutes],
    ['admin', archiveAdminRoutes],
  ]
  await registerApi(
    app,
    apiKeys,
    rateLimits,
    ADMIN_PREFIX,
    adminScope,
    async (api) => {
      for (const [access, routes] of adminModules)
        await api.register(withSessionAccess(access, routes), options)
    },
    login,
  )

  // 6. What needs no key, outside both APIs and under the per-IP limit instead: liveness and
  // readiness for load balancers, the generated documents and interactive playgrounds, customers'
  // tracking pages, and the web dashboard at / (its sign-in is an API call; without a build, a landing
  // page that links to the docs).
  await app.register(async (open) => {
    if (ipLimit) open.addHook('onRequest', ipLimit)
    installHealthRoutes(open, { db: deps.db, dialect: deps.dialect, lifecycle, rateLimits, log: app.log })
    installDocsRoutes(open)
    // The customer's tracking page and its data: the token is the key (modules/tracking).
    await open.register(trackingRoutes, {
      db: deps.db,
      positions: deps.positions ?? keptPositions(deps.clock ?? Date.now),
      ...(deps.clock ? { clock: deps.clock } : {}),
    })
    // The web dashboard: its files, and index.html for the SPA's own paths (never /v1/*).
    const dashboard =
      deps.dashboardDir !== undefined && (await installDashboard(open, { dir: deps.dashboardDir }))
    if (!dashboard) installLandingPage(open)
  })
  return app
}

async function registerApi(
  app: FastifyInstance,
  apiKeys: ApiKeyResolver,
  rateLimits: RateLimits,
  prefix: string,
  requiredScope: (method: string) => Scope,
  routes: (api: FastifyInstance) => Promise<void>,
  login?: SessionLogin,
): Promise<void> {
  await app.register(
    async (api) => {
      if (login) {
        await api.register(cookie)
        documentCsrfErrors(api)
      }
      installAuthentication(api, apiKeys, login)
      await installRateLimit(api, rateLimits)
      appendAccessCheck(api, requiredScope)
      await routes(api)
    },
    { prefix },
  )
}
