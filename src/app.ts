// buildApp: the whole HTTP service, used by main.ts and by every test (through app.inject()).
import { randomUUID } from 'node:crypto'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify'
import type { Kysely } from 'kysely'
import { type Config, WEBHOOK_DEFAULTS } from './config.js'
import type { Dialect } from './db/database.js'
import type { Database } from './db/types.js'
import {
  ApiKeyResolver,
  adminScope,
  appendAccessCheck,
  installAuthentication,
  publicScope,
} from './http/auth.js'
import { installErrorHandling } from './http/error-handler.js'
import { AppError } from './http/errors.js'
import { installJsonParser } from './http/json-body.js'
import { ADMIN_PREFIX, installDocsRoutes, installOpenApi, PUBLIC_PREFIX } from './http/openapi.js'
import { installOptionalBodies } from './http/optional-body.js'
import { installRateLimit, RateLimits } from './http/rate-limit.js'
import type { RouteOptions } from './http/route-options.js'
import { ErrorBody } from './http/schemas.js'
import { installValidators } from './http/validation.js'
import { apiKeyAdminRoutes } from './modules/api-keys/admin-routes.js'
import type { Scope } from './modules/api-keys/service.js'
import { automationAdminRoutes } from './modules/automations/admin-routes.js'
import { executionAdminRoutes } from './modules/automations/execution-routes.js'
import { type WebhookConfig, Webhooks } from './modules/automations/webhooks.js'
import { capacityDimensionAdminRoutes } from './modules/capacity-dimensions/admin-routes.js'
import { customerRoutes } from './modules/customers/routes.js'
import { formAdminRoutes } from './modules/forms/admin-routes.js'
import { jobAdminRoutes } from './modules/jobs/admin-routes.js'
import { jobRoutes } from './modules/jobs/routes.js'
import { locationAdminRoutes } from './modules/locations/admin-routes.js'
import { locationRoutes } from './modules/locations/routes.js'
import { organisationAdminRoutes } from './modules/organisations/admin-routes.js'
import { teamAdminRoutes } from './modules/organisations/team-admin-routes.js'
import { shiftAdminRoutes } from './modules/shifts/admin-routes.js'
import { shiftRoutes } from './modules/shifts/routes.js'
import { tagAdminRoutes } from './modules/tags/admin-routes.js'
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
    Partial<Pick<Config, 'redisUrl' | 'redisKeyPrefix'>>
  logger?: FastifyServerOptions['logger']
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
  }
}

export type App = FastifyInstance

/** Printable ASCII, at most 128 characters: what a client may choose as its request id. */
const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/

export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: deps.config.bodyLimitBytes,
    // Long enough for any id we issue; a longer one is simply not found.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
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

  // 1. Input: strict body validation, coerced query strings, our JSON parser.
  installValidators(app)
  installJsonParser(app, deps.config.bodyLimitBytes)
  installOptionalBodies(app)
  // 2. Output: one error handler and one not-found handler for every route.
  installErrorHandling(app)
  app.addSchema(ErrorBody)
  // PostgreSQL cannot store NUL in text and no value of this API contains one; a %00 anywhere in
  // the URL (path or query) is refused before it reaches a query.
  // Every answer, errors included, names its request id and carries the security headers of a JSON
  // API. No strict-transport-security: TLS terminates at the load balancer, which sets HSTS for the
  // public host name; this process speaks plain HTTP behind it (and on localhost in development).
  // No content-security-policy either: the API serves JSON, and one strict enough to matter would
  // break the swagger-ui playground. cache-control is a default: the playground's static assets set
  // their own. From the shutdown signal on, every response closes its connection, so keep-alive
  // clients reconnect (to another instance, once the load balancer has seen /readyz fail) before
  // this one stops listening. Callback-style hooks: these run on every request, and an async hook
  // costs a promise each time.
  const lifecycle = new Lifecycle()
  app.decorate('lifecycle', lifecycle)
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    reply.header('x-content-type-options', 'nosniff')
    reply.header('x-frame-options', 'DENY')
    reply.header('referrer-policy', 'no-referrer')
    reply.header('cache-control', 'no-store')
    if (lifecycle.stopping) reply.header('connection', 'close')
    if (/%00/i.test(request.url)) {
      done(new AppError('VALIDATION_ERROR', 'The URL contains a NUL character (%00)'))
      return
    }
    done()
  })
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
  const rateLimits = new RateLimits(deps.config.redisUrl, app.log, { keyPrefix: deps.config.redisKeyPrefix })
  app.decorate('rateLimits', rateLimits)
  app.addHook('onClose', async () => rateLimits.close())
  const options: RouteOptions = {
    db: deps.db,
    apiKeys,
    defaultRateLimitPerMinute: deps.config.defaultRateLimitPerMinute,
    webhooks,
  }
  await registerApi(app, apiKeys, rateLimits, PUBLIC_PREFIX, publicScope, async (api) => {
    await api.register(jobRoutes, options)
    await api.register(customerRoutes, options)
    await api.register(vehicleRoutes, options)
    await api.register(locationRoutes, options)
    await api.register(shiftRoutes, options)
  })
  await registerApi(app, apiKeys, rateLimits, ADMIN_PREFIX, adminScope, async (api) => {
    await api.register(organisationAdminRoutes, options)
    await api.register(teamAdminRoutes, options)
    await api.register(tagAdminRoutes, options)
    await api.register(capacityDimensionAdminRoutes, options)
    await api.register(locationAdminRoutes, options)
    await api.register(vehicleAdminRoutes, options)
    await api.register(shiftAdminRoutes, options)
    await api.register(jobAdminRoutes, options)
    await api.register(formAdminRoutes, options)
    await api.register(apiKeyAdminRoutes, options)
    await api.register(automationAdminRoutes, options)
    await api.register(executionAdminRoutes, options)
  })

  // 6. Liveness and readiness for load balancers: outside both APIs, so no key and no rate limit.
  installHealthRoutes(app, { db: deps.db, dialect: deps.dialect, lifecycle, rateLimits, log: app.log })

  // 7. Documentation: the generated document and the interactive playground (no key needed).
  await installDocsRoutes(app)
  return app
}

async function registerApi(
  app: FastifyInstance,
  apiKeys: ApiKeyResolver,
  rateLimits: RateLimits,
  prefix: string,
  requiredScope: (method: string) => Scope,
  routes: (api: FastifyInstance) => Promise<void>,
): Promise<void> {
  await app.register(
    async (api) => {
      installAuthentication(api, apiKeys)
      await installRateLimit(api, rateLimits)
      appendAccessCheck(api, requiredScope)
      await routes(api)
    },
    { prefix },
  )
}
