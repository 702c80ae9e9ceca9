// What the HTTP app holds for webhooks: one sender (connection pool, target guard), the dispatcher,
// and the target policy that automation writes are checked against.
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.js'
import type { Database } from '../../db/types.js'
import { WebhookSender } from './delivery.js'
import { type OutboxFollower, WebhookDispatcher } from './dispatcher.js'
import type { TargetPolicy } from './service.js'

export type WebhookConfig = Pick<
  Config,
  | 'webhookDispatcher'
  | 'webhookAllowPrivate'
  | 'webhookTimeoutMs'
  | 'webhookPollIntervalMs'
  | 'webhookConcurrency'
  | 'webhookRetentionDays'
>

export class Webhooks {
  readonly sender: WebhookSender
  readonly dispatcher: WebhookDispatcher
  readonly policy: TargetPolicy

  constructor(
    db: Kysely<Database>,
    private readonly config: WebhookConfig,
    logger?: FastifyBaseLogger,
    /** What else the outbox drives (customer emails), claimed with the webhooks. */
    private readonly followers: readonly OutboxFollower[] = [],
  ) {
    this.policy = { allowPrivate: config.webhookAllowPrivate }
    this.sender = new WebhookSender({
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivate,
      logger,
    })
    this.dispatcher = new WebhookDispatcher(db, this.sender, {
      pollIntervalMs: config.webhookPollIntervalMs,
      concurrency: config.webhookConcurrency,
      retentionDays: config.webhookRetentionDays,
      logger,
      followers,
    })
  }

  /** Starts the background dispatcher, unless this process was told not to run one. */
  start(): void {
    if (this.config.webhookDispatcher) this.dispatcher.start()
  }

  /** Finishes the deliveries in flight, then closes the connection pool. */
  async close(): Promise<void> {
    await this.dispatcher.stop()
    await this.sender.close()
    for (const follower of this.followers) follower.close()
  }
}
