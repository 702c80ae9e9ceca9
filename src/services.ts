// The long-lived services of one app, built here so that app.ts only says the order of plugins: the
// webhook sender and dispatcher, the route plan runner, the API key cache and the dashboard sign-in.
// Each is started when the app is ready and stopped when it closes, and all of them reach the route
// modules as their RouteOptions.
import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { type Clock, systemClock } from './clock.js'
import {
  type Config,
  DEFAULT_ATTACHMENT_QUOTA_BYTES,
  DEFAULT_PUBLIC_BASE_URL,
  DEFAULT_ROUTE_PLAN_QUEUE_MAX,
  DEFAULT_SMTP_FROM,
  LIVE_DEFAULTS,
  OSRM_DEFAULTS,
  SERIES_DEFAULTS,
  type SESSION_DEFAULTS,
  WEBHOOK_DEFAULTS,
} from './config.js'
import type { Database } from './db/types.js'
import type { IpLimit } from './http/ip-rate-limit.js'
import type { RateLimits } from './http/rate-limit.js'
import { DatabaseAttachmentStore } from './modules/attachments/db-store.js'
import { parseS3StoreUrl, S3AttachmentStore } from './modules/attachments/s3-store.js'
import type { AttachmentStore } from './modules/attachments/store.js'
import { ApiKeyResolver, buildDashboardSignIn, type SessionLogin } from './modules/auth/index.js'
import { type WebhookConfig, Webhooks } from './modules/automations/webhooks.js'
import { SmtpMailer } from './modules/customer-messages/mailer.js'
import { CustomerMail } from './modules/customer-messages/service.js'
import { Geocoder } from './modules/geocoding/geocoder.js'
import { SeriesGenerator } from './modules/job-series/generator.js'
import { LiveRefresher } from './modules/live/refresher.js'
import { proofPdf } from './modules/proof/pdf.js'
import { loadProof } from './modules/proof/service.js'
import type { RouteOptions } from './modules/route-options.js'
import { PLAN_RUNNER_DEFAULTS, PlanRunner } from './modules/route-plans/runner.js'
import { createDaySolver } from './modules/route-plans/solve-day.js'
import type { ScryptParams } from './modules/sessions/passwords.js'
import { TravelTimes } from './modules/travel/travel-times.js'

export interface ServiceDeps {
  db: Kysely<Database>
  /** Webhook settings left out take WEBHOOK_DEFAULTS (dispatcher on, public targets only). */
  config: Pick<Config, 'authCacheTtlMs' | 'defaultRateLimitPerMinute'> &
    Partial<WebhookConfig> &
    Partial<Pick<Config, 'planWorkers' | 'routePlanQueueMax'>> &
    Partial<Pick<Config, keyof typeof LIVE_DEFAULTS>> &
    Partial<Pick<Config, keyof typeof SERIES_DEFAULTS>> &
    Partial<Pick<Config, keyof typeof SESSION_DEFAULTS>> &
    Partial<Pick<Config, 'publicBaseUrl' | 'smtpUrl' | 'smtpFrom' | 'geocoderUrl' | 'geocoderFormat'>> &
    Partial<Pick<Config, 'attachmentStore' | 'attachmentQuotaBytes'>> &
    Partial<Pick<Config, 'routingOsrmUrl' | 'routingOsrmMaxTable' | 'routingOsrmTimeoutMs'>>
  /** The server's "now": dashboard sessions, ETAs, shifts, plans of today and "On my way" (tests move it); Date.now by default. */
  clock?: Clock
  /** Where attachment content is kept, in place of what config.attachmentStore says (tests). */
  attachmentStore?: AttachmentStore
  /** scrypt parameters of new password hashes (tests use cheap ones); DEFAULT_SCRYPT by default. */
  passwordParams?: ScryptParams
}

export interface Services {
  /** What every route module is registered with. */
  routeOptions: RouteOptions
  /** How the admin API takes a session cookie in place of a key. */
  login: SessionLogin
  webhooks: Webhooks
  /** The live day's ETA refresher (woken by job writes; its minute's tick under a lease). */
  live: LiveRefresher
  /** Job series' occurrences made jobs up to the horizon (its hourly tick under a lease). */
  series: SeriesGenerator
}

/**
 * Builds the services and ties their start and stop to the app's. `requestDb` is the view of the
 * database route modules are given (http/request-database.ts); `rateLimits` counts failed sign-ins;
 * `ipLimit` guards the sign-in route, which needs no key.
 */
export function buildServices(
  app: FastifyInstance,
  deps: ServiceDeps,
  requestDb: Kysely<Database>,
  rateLimits: RateLimits,
  ipLimit: IpLimit | undefined,
): Services {
  // The dispatcher delivers committed outbox events from the moment the app is ready, is nudged
  // after every successful write, and finishes its deliveries when the app closes.
  const webhookConfig = { ...WEBHOOK_DEFAULTS, ...deps.config }
  // Attachments: the database's chunks, or the S3 bucket of ATTACHMENT_STORE (its SDK loaded only then).
  // The store gets the database itself: content is streamed out after a request's handler returns.
  const attachmentStore = deps.attachmentStore ?? buildAttachmentStore(deps)
  if (attachmentStore instanceof S3AttachmentStore)
    app.addHook('onClose', async () => attachmentStore.close())
  // Customer emails go out with the webhooks, from the same claims (customer-messages/service.ts);
  // without SMTP_URL there is nothing to send them with, and none are made.
  const smtpUrl = deps.config.smtpUrl
  const customerMail = smtpUrl
    ? new CustomerMail(deps.db, new SmtpMailer(smtpUrl, deps.config.smtpFrom ?? DEFAULT_SMTP_FROM), {
        retentionDays: webhookConfig.webhookRetentionDays,
        ...(deps.clock ? { clock: deps.clock } : {}),
        logger: app.log,
        // A completed job's email carries its proof (proof/service.ts), as the admin API draws it.
        proofPdf: async (organisationId, jobId) => {
          const proof = await loadProof(
            deps.db,
            attachmentStore,
            organisationId,
            jobId,
            (deps.clock ?? Date.now)(),
          )
          return { filename: `${proof.number}-proof.pdf`, content: await proofPdf(proof) }
        },
      })
    : undefined
  const webhooks = new Webhooks(deps.db, webhookConfig, app.log, customerMail ? [customerMail] : [])
  app.addHook('onReady', async () => webhooks.start())
  app.addHook('onClose', async () => webhooks.close())
  // Travel matrices: road times from ROUTING_OSRM_URL's table service (cached per organisation and
  // day), else straight lines; one instance, so plans and the board share its cache.
  const travelTimes = buildTravelTimes(deps.config)
  // Route plans: a runner claims queued plans and solves them in worker threads (PLAN_WORKERS).
  const planWorkers = deps.config.planWorkers ?? PLAN_RUNNER_DEFAULTS.concurrency
  const planRunner =
    planWorkers > 0
      ? new PlanRunner(deps.db, createDaySolver(travelTimes), app.log, {
          ...PLAN_RUNNER_DEFAULTS,
          concurrency: planWorkers,
        })
      : undefined
  if (planRunner) {
    app.addHook('onReady', async () => planRunner.start())
    app.addHook('onClose', async () => planRunner.close())
  }
  // The live day: ETAs recomputed every minute on the instance holding the lease, and on writes.
  const clock = deps.clock ?? systemClock
  const live = new LiveRefresher(deps.db, clock, { ...LIVE_DEFAULTS, ...pickLive(deps.config) }, app.log)
  app.addHook('onReady', async () => live.start())
  app.addHook('onClose', async () => live.close())
  // Job series: the horizon of generated occurrences moved on every hour, on one instance at a time.
  const seriesSettings = {
    horizonDays: deps.config.seriesHorizonDays ?? SERIES_DEFAULTS.seriesHorizonDays,
    generateSeconds: deps.config.seriesGenerateSeconds ?? SERIES_DEFAULTS.seriesGenerateSeconds,
  }
  const series = new SeriesGenerator(deps.db, clock, seriesSettings, app.log)
  app.addHook('onReady', async () => series.start())
  app.addHook('onClose', async () => series.close())
  const { dashboard, login } = buildDashboardSignIn({
    db: deps.db,
    config: deps.config,
    failures: rateLimits.signInStore(),
    ...(ipLimit ? { ipLimit } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.passwordParams ? { passwordParams: deps.passwordParams } : {}),
  })
  // Route modules get the request's view of the database; background work above gets the database itself.
  const routeOptions: RouteOptions = {
    db: requestDb,
    apiKeys: new ApiKeyResolver(deps.db, deps.config.authCacheTtlMs),
    defaultRateLimitPerMinute: deps.config.defaultRateLimitPerMinute,
    webhooks,
    ...(planRunner ? { planRunner } : {}),
    routePlanQueueMax: deps.config.routePlanQueueMax ?? DEFAULT_ROUTE_PLAN_QUEUE_MAX,
    dashboard,
    clock,
    live,
    seriesHorizonDays: seriesSettings.horizonDays,
    publicBaseUrl: deps.config.publicBaseUrl ?? DEFAULT_PUBLIC_BASE_URL,
    smtpConfigured: deps.config.smtpUrl !== undefined,
    travelTimes,
    attachments: {
      store: attachmentStore,
      quotaBytes: deps.config.attachmentQuotaBytes ?? DEFAULT_ATTACHMENT_QUOTA_BYTES,
      clock,
    },
    ...(deps.config.geocoderUrl
      ? { geocoder: new Geocoder({ url: deps.config.geocoderUrl, format: deps.config.geocoderFormat }) }
      : {}),
  }
  return { routeOptions, login, webhooks, live, series }
}

function buildTravelTimes(config: ServiceDeps['config']): TravelTimes {
  const url = config.routingOsrmUrl
  if (!url) return new TravelTimes()
  return new TravelTimes({
    osrm: {
      url,
      maxTable: config.routingOsrmMaxTable ?? OSRM_DEFAULTS.maxTable,
      timeoutMs: config.routingOsrmTimeoutMs ?? OSRM_DEFAULTS.timeoutMs,
    },
  })
}

function buildAttachmentStore(deps: ServiceDeps): AttachmentStore {
  const url = deps.config.attachmentStore
  return url ? new S3AttachmentStore(parseS3StoreUrl(url)) : new DatabaseAttachmentStore(deps.db)
}

function pickLive(config: ServiceDeps['config']): Partial<Record<keyof typeof LIVE_DEFAULTS, number>> {
  const picked: Partial<Record<keyof typeof LIVE_DEFAULTS, number>> = {}
  for (const key of Object.keys(LIVE_DEFAULTS) as (keyof typeof LIVE_DEFAULTS)[]) {
    const value = config[key]
    if (value !== undefined) picked[key] = value
  }
  return picked
}
