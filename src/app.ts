// buildApp: the whole HTTP service, used by main.ts and by every test (through app.inject()).
import { randomUUID } from 'node:crypto'
import cookie from '@fastify/cookie'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify'
import type { Kysely } from 'kysely'
import {
  type Config,
  DEFAULT_IP_RATE_LIMIT_PER_MINUTE,
  DEFAULT_ROUTE_PLAN_QUEUE_MAX,
  SESSION_DEFAULTS,
  WEBHOOK_DEFAULTS,
} from './config.js'
import { ambientDatabase } from './db/ambient-transaction.js'
import type { Dialect } from './db/database.js'
import type { Database } from './db/types.js'
import { appendAccessCheck, type SessionAccess, withSessionAccess } from './http/access.js'
import {
  ApiKeyResolver,
  adminScope,
  installAuthentication,
  publicScope,
  type SessionLogin,
} from './http/auth.js'
import { installDashboard } from './http/dashboard.js'
import { installErrorHandling } from './http/error-handler.js'
import { AppError } from './http/errors.js'
import { installEtags } from './http/etags.js'
import { installIdempotency } from './http/idempotency.js'
import { installIpRateLimit } from './http/ip-rate-limit.js'
import { installJsonParser } from './http/json-body.js'
import { installLandingPage } from './http/landing-page.js'
import { DEFAULT_CHANGE_SETTLE_MS } from './http/list-order.js'
import { ADMIN_PREFIX, installOpenApi, PUBLIC_PREFIX } from './http/openapi.js'
import { installOptionalBodies } from './http/optional-body.js'
import { installDocsRoutes } from './http/playground.js'
import { installRateLimit, RateLimits } from './http/rate-limit.js'
import { lazyChildLogger, RequestLines, writesInfo } from './http/request-logger.js'
import type { Dashboard, RouteOptions } from './http/route-options.js'
import { ErrorBody } from './http/schemas.js'
import { CONTENT_SECURITY_POLICY } from './http/security-headers.js'
import {
  capConnections,
  SERVER_LIMIT_DEFAULTS,
  type ServerLimits,
  serverOptions,
} from './http/server-limits.js'
import { documentCsrfErrors, SessionCookies } from './http/session-auth.js'
import { installUnroutedAnswers, ROUTER_OPTIONS } from './http/unrouted.js'
import { installValidators } from './http/validation.js'
import { apiKeyAdminRoutes } from './modules/api-keys/admin-routes.js'
import type { Scope } from './modules/api-keys/service.js'
import { automationAdminRoutes } from './modules/automations/admin-routes.js'
import { executionAdminRoutes } from './modules/automations/execution-routes.js'
import { type WebhookConfig, Webhooks } from './modules/automations/webhooks.js'
import { boardAdminRoutes } from './modules/board/admin-routes.js'
import { customerAdminRoutes } from './modules/customers/admin-routes.js'
import { customerRoutes } from './modules/customers/routes.js'
import { eventFeedRoutes } from './modules/events/feed.js'
import { formTemplateAdminRoutes } from './modules/form-templates/admin-routes.js'
import { formAdminRoutes } from './modules/forms/admin-routes.js'
import { jobAdminRoutes } from './modules/jobs/admin-routes.js'
import { jobRoutes } from './modules/jobs/routes.js'
import { locationAdminRoutes } from './modules/locations/admin-routes.js'
import { locationRoutes } from './modules/locations/routes.js'
import { myDayRoutes } from './modules/my-day/routes.js'
import { organisationAdminRoutes } from './modules/organisations/admin-routes.js'
import { teamAdminRoutes } from './modules/organisations/team-admin-routes.js'
import { capacityDimensionAdminRoutes, tagAdminRoutes } from './modules/reference-data/admin-routes.js'
import { routePlanAdminRoutes } from './modules/route-plans/admin-routes.js'
import { PLAN_RUNNER_DEFAULTS, PlanRunner } from './modules/route-plans/runner.js'
import { solveDay } from './modules/route-plans/solve-day.js'
import { sessionAdminRoutes } from './modules/sessions/admin-routes.js'
import { DeviceCookies } from './modules/sessions/device-cookies.js'
import { DEFAULT_SCRYPT, type ScryptParams } from './modules/sessions/passwords.js'
import { Sessions } from './modules/sessions/service.js'
import { SignIn } from './modules/sessions/sign-in.js'
import { SignInLimiter } from './modules/sessions/sign-in-limits.js'
import { shiftAdminRoutes } from './modules/shifts/admin-routes.js'
import { shiftRoutes } from './modules/shifts/routes.js'
import { vehicleAdminRoutes } from './modules/vehicles/admin-routes.js'
import { vehicleRoutes } from './modules/vehicles/routes.js'
import { installHealthRoutes } from './ops/health.js'
import { Lifecycle } from './ops/lifecycle.js'
import { ServiceMetrics } from './ops/metrics.js'

export interface AppDeps {
  db: Kysely<Database>
  dialect: Dialect
  /** Webhook settings left out take WEBHOOK_DEFAULTS (dispatcher on, public targets only). */
  config: Pick<Config, 'authCacheTtlMs' | 'defaultRateLimitPerMinute' | 'bodyLimitBytes'> &
    Partial<WebhookConfig> &
    Partial<
      Pick<
        Config,
        | 'redisUrl'
        | 'redisKeyPrefix'
        | 'planWorkers'
        | 'routePlanQueueMax'
        | 'ipRateLimitPerMinute'
        | 'trustProxy'
        | 'changeSettleMs'
      >
    > &
    Partial<ServerLimits> &
    Partial<Pick<Config, keyof typeof SESSION_DEFAULTS>>
  logger?: FastifyServerOptions['logger']
  /**
   * The built web dashboard to serve at `/` (the server passes dist/web). Left out, or not built
   * there, `/` answers a landing page: tests see the same app whether or not dist/web exists.
   */
  dashboardDir?: string
  /** The clock dashboard sessions are timed by (tests move it); Date.now by default. */
  clock?: () => number
  /** scrypt parameters of new password hashes (tests use cheap ones); DEFAULT_SCRYPT by default. */
  passwordParams?: ScryptParams
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhook sender and dispatcher this app runs (started when the app is ready). */
    webhooks: Webhooks
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

/** Printable ASCII, at most 128 characters: what a client may choose as its request id. */
const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/

export async function buildApp(deps: AppDeps): Promise<App> {
  const limits = serverLimitsOf(deps.config)
  const app = Fastify({
    // Header, request, keep-alive and idle timeouts of the listening server (tests through inject()
    // never listen).
    ...serverOptions(limits),
    logger: deps.logger ?? false,
    childLoggerFactory: lazyChildLogger,
    // Request lines are info lines: at a level that drops them, they are not even attempted.
    logController: new RequestLines(writesInfo(deps.logger)),
    bodyLimit: deps.config.bodyLimitBytes,
    // The client address (logs, the per-IP and sign-in limits) and protocol (the session cookie's
    // Secure flag): X-Forwarded-* only from the proxies TRUST_PROXY names.
    trustProxy: trustedProxies(deps.config.trustProxy ?? false),
    // Long enough for any id we issue; a longer one is simply not found.
    routerOptions: ROUTER_OPTIONS,
    // A client's own x-request-id is kept when it is a sane token (it is echoed in a header and
    // written to the logs); anything else gets a fresh id.
    requestIdHeader: false,
    genReqId: (request) => {
      const id = request.headers['x-request-id']
      return typeof id === 'string' && CLIENT_REQUEST_ID.test(id) ? id : randomUUID()
    },
    // URLs Fastify cannot route get our error body too: a parameter longer than any id we issue is
    // simply not found; broken percent-encoding is a bad request.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      const path = request.url.split('?')[0]
      reply
        .code(tooLong ? 404 : 400)
        .header('x-request-id', request.id)
        .send(
          tooLong
            ? { error: `Route ${request.method} ${path} not found`, code: 'NOT_FOUND' }
            : { error: 'The URL is not valid (malformed percent-encoding)', code: 'VALIDATION_ERROR' },
        )
    },
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>()
  capConnections(app.server, limits, app.log)

  // 1. Input: strict body validation, coerced query strings, our JSON parser.
  installValidators(app)
  installJsonParser(app, deps.config.bodyLimitBytes)
  installOptionalBodies(app)
  // 2. Output: one error handler for every route.
  installErrorHandling(app)
  app.addSchema(ErrorBody)
  // PostgreSQL cannot store NUL in text and no value of this API contains one; a %00 anywhere in
  // the URL (path or query) is refused before it reaches a query.
  // Every answer, errors included, names its request id and carries the security headers of a JSON
  // API. No strict-transport-security: TLS terminates at the load balancer, which sets HSTS for the
  // public host name; this process speaks plain HTTP behind it (and on localhost in development).
  // One content-security-policy for every answer: the dashboard's (no inline script, nothing from
  // elsewhere, never framed), which JSON answers carry harmlessly and the swagger-ui playgrounds
  // satisfy too (see security-headers.ts). cache-control is a default: the playground's static
  // assets set their own. From the shutdown signal on, every response closes its connection, so keep-alive
  // clients reconnect (to another instance, once the load balancer has seen /readyz fail) before
  // this one stops listening. Callback-style hooks: these run on every request, and an async hook
  // costs a promise each time.
  const lifecycle = new Lifecycle()
  app.decorate('lifecycle', lifecycle)
  app.decorate('changeSettleMs', deps.config.changeSettleMs ?? DEFAULT_CHANGE_SETTLE_MS)
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    reply.header('x-content-type-options', 'nosniff')
    reply.header('x-frame-options', 'DENY')
    reply.header('referrer-policy', 'same-origin')
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY)
    reply.header('cache-control', 'no-store')
    if (lifecycle.stopping) reply.header('connection', 'close')
    if (/%00/i.test(request.url)) {
      done(new AppError('VALIDATION_ERROR', 'The URL contains a NUL character (%00)'))
      return
    }
    done()
  })
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
  await installOpenApi(app)

  // 4. Webhooks: the dispatcher delivers committed outbox events from the moment the app is ready,
  // is nudged after every successful write, and finishes its deliveries when the app closes.
  const webhooks = new Webhooks(deps.db, { ...WEBHOOK_DEFAULTS, ...deps.config }, app.log)
  app.decorate('webhooks', webhooks)
  app.addHook('onReady', async () => webhooks.start())
  app.addHook('onClose', async () => webhooks.close())
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
    if (method !== 'GET' && reply.statusCode < 400) webhooks.dispatcher.wake()
    done()
  })

  // 5. The two APIs: authentication → per-key rate limit → plan and scope checks → routes.
  const apiKeys = new ApiKeyResolver(deps.db, deps.config.authCacheTtlMs)
  // Route plans: a runner claims queued plans and solves them in worker threads (PLAN_WORKERS).
  const planWorkers = deps.config.planWorkers ?? PLAN_RUNNER_DEFAULTS.concurrency
  const planRunner =
    planWorkers > 0
      ? new PlanRunner(deps.db, solveDay, app.log, { ...PLAN_RUNNER_DEFAULTS, concurrency: planWorkers })
      : undefined
  if (planRunner) {
    app.addHook('onReady', async () => planRunner.start())
    app.addHook('onClose', async () => planRunner.close())
  }
  // Dashboard sign-in: sessions timed by the injected clock, failed sign-ins counted in the
  // rate-limit store, one budget per signed-in user.
  const sessionConfig = { ...SESSION_DEFAULTS, ...definedOnly(deps.config) }
  const sessions = new Sessions(deps.db, {
    idleMs: sessionConfig.sessionIdleMs,
    workerIdleMs: sessionConfig.workerSessionIdleMs,
    maxAgeMs: sessionConfig.sessionMaxAgeMs,
    now: deps.clock ?? Date.now,
  })
  const passwordParams = deps.passwordParams ?? DEFAULT_SCRYPT
  const signInLimiter = new SignInLimiter(rateLimits.signInStore(), {
    maxFailuresPerAccountAndIp: sessionConfig.signInMaxFailuresPerAccountAndIp,
    maxFailuresPerIp: sessionConfig.signInMaxFailuresPerIp,
    maxFailuresPerAccount: sessionConfig.signInMaxFailuresPerAccount,
    maxFailuresPerDevice: sessionConfig.signInMaxFailuresPerDevice,
    windowMs: sessionConfig.signInWindowMs,
  })
  const devices = new DeviceCookies(deps.db, sessions.settings.now)
  const cookies = new SessionCookies(sessions)
  const dashboard: Dashboard = {
    sessions,
    cookies,
    signIn: new SignIn(deps.db, sessions, signInLimiter, devices, passwordParams),
    passwordParams,
    ...(ipLimit ? { ipLimit } : {}),
  }
  const login: SessionLogin = { cookies, rateLimitPerMinute: sessionConfig.sessionRateLimitPerMinute }
  // Idempotency-Key on every write of both APIs; route modules get the database through a view that
  // follows an idempotent request's transaction (db/ambient-transaction.ts).
  // Before idempotency: an idempotent request's transaction then holds the If-Match check too.
  installEtags(app, ambientDatabase(deps.db))
  installIdempotency(app, { db: deps.db })
  const options: RouteOptions = {
    db: ambientDatabase(deps.db),
    apiKeys,
    defaultRateLimitPerMinute: deps.config.defaultRateLimitPerMinute,
    webhooks,
    ...(planRunner ? { planRunner } : {}),
    routePlanQueueMax: deps.config.routePlanQueueMax ?? DEFAULT_ROUTE_PLAN_QUEUE_MAX,
    dashboard,
  }
  await registerApi(app, apiKeys, rateLimits, PUBLIC_PREFIX, publicScope, async (api) => {
    await api.register(jobRoutes, options)
    await api.register(customerRoutes, options)
    await api.register(vehicleRoutes, options)
    await api.register(locationRoutes, options)
    await api.register(shiftRoutes, options)
    await api.register(eventFeedRoutes, options)
  })
  // The admin API also takes a dashboard session (cookie + CSRF token). Which sessions each module
  // admits (access.ts): single routes may say otherwise (organisation PATCH and team changes: ADMIN).
  const adminModules: [SessionAccess, Parameters<typeof withSessionAccess>[1]][] = [
    ['session', sessionAdminRoutes],
    ['dispatch', organisationAdminRoutes],
    ['dispatch', teamAdminRoutes],
    ['dispatch', tagAdminRoutes],
    ['dispatch', capacityDimensionAdminRoutes],
    ['dispatch', locationAdminRoutes],
    ['dispatch', vehicleAdminRoutes],
    ['dispatch', shiftAdminRoutes],
    ['dispatch', jobAdminRoutes],
    ['dispatch', customerAdminRoutes],
    ['dispatch', formAdminRoutes],
    ['admin', formTemplateAdminRoutes],
    ['worker', myDayRoutes],
    ['dispatch', routePlanAdminRoutes],
    ['dispatch', boardAdminRoutes],
    ['pro-admin', apiKeyAdminRoutes],
    ['pro-admin', automationAdminRoutes],
    ['pro-admin', executionAdminRoutes],
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
  // readiness for load balancers, the generated documents and interactive playgrounds, and the web
  // dashboard at / (its sign-in is an API call; without a build, a landing page that links to the docs).
  await app.register(async (open) => {
    if (ipLimit) open.addHook('onRequest', ipLimit)
    installHealthRoutes(open, { db: deps.db, dialect: deps.dialect, lifecycle, rateLimits, log: app.log })
    installDocsRoutes(open)
    // The web dashboard: its files, and index.html for the SPA's own paths (never /v1/*).
    const dashboard =
      deps.dashboardDir !== undefined && (await installDashboard(open, { dir: deps.dashboardDir }))
    if (!dashboard) installLandingPage(open)
  })
  return app
}

function serverLimitsOf(config: Partial<ServerLimits>): ServerLimits {
  const limits = { ...SERVER_LIMIT_DEFAULTS }
  for (const name of Object.keys(limits) as (keyof ServerLimits)[]) {
    const value = config[name]
    if (value !== undefined) limits[name] = value
  }
  return limits
}

/** A hop count as the function Fastify's types ask for (its runtime takes the number too). */
function trustedProxies(
  setting: Config['trustProxy'],
): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting
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

/** The settings given, without the ones left undefined (which take their defaults). */
function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}
