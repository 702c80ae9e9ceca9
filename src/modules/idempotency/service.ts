// Idempotency keys (issue 16, as Stripe and the IETF Idempotency-Key draft describe them): the first
// request with a key claims it, and its response is stored for 24 hours and replayed to every retry.
// A key is its credential's own (an API key, or a signed-in user): the same key sent by another
// credential of the organisation is a new key, claimed and answered on its own, never a replay of
// the other's answer (which could show what that credential may not see).
//
// A claim is one short statement committed on its own (INSERT … ON CONFLICT DO NOTHING), so another
// instance sees it at once: the database, not a process's memory, decides who runs a request. What an
// existing row means, in this order:
// - expired (older than 24 h): as if absent — taken over;
// - another method, path or body: 422 IDEMPOTENCY_KEY_REUSED;
// - DONE: its response is replayed;
// - RUNNING for less than `staleAfterMs`: 409 IDEMPOTENCY_KEY_IN_USE (the first is still running);
// - RUNNING for longer: its process died before committing anything (a request's work and its DONE
//   commit together), so it is taken over and runs again. Takeovers are conditional updates on the
//   claim id: of several racing retries one wins.
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import { AppError } from '../../http/errors.js'
import * as repository from './repository.js'

export { fingerprintOf } from './fingerprint.js'
export type { KeyOwner } from './repository.js'

export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000
/**
 * A RUNNING claim older than this belongs to a request that can no longer be running: longer than any
 * request is allowed to take, with a margin.
 */
export const STALE_CLAIM_MS = 60_000
const PRUNE_INTERVAL_MS = 10 * 60_000
const PRUNE_BATCH = 1000
/** Claim attempts when the row keeps changing under us (taken over, released) before giving up. */
const CLAIM_ATTEMPTS = 3

export type ClaimOutcome =
  | { claimed: true; claimId: string }
  | { claimed: false; status: number; body: string }

const inUse = () =>
  new AppError(
    'IDEMPOTENCY_KEY_IN_USE',
    'A request with this Idempotency-Key is still being processed; retry once it has finished',
  )

const reused = () =>
  new AppError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used for a different request (another method, path or body) ' +
      'in the last 24 hours; send a new key with a new request',
  )

export async function claimKey(
  db: Kysely<Database>,
  owner: repository.KeyOwner,
  key: string,
  fingerprint: string,
  staleAfterMs = STALE_CLAIM_MS,
): Promise<ClaimOutcome> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const now = Date.now()
    const claim: repository.NewClaim = {
      organisation_id: owner.organisationId,
      credential: owner.credential,
      key,
      fingerprint,
      claim_id: randomUUID(),
      locked_at: new Date(now).toISOString(),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + KEY_LIFETIME_MS).toISOString(),
    }
    if (await repository.insertClaim(db, claim)) return { claimed: true, claimId: claim.claim_id }
    const row = await repository.findKey(db, owner, key)
    if (!row) continue // released or pruned since the insert: try again
    const expired = Date.parse(row.expires_at) <= now
    if (!expired && row.fingerprint !== fingerprint) throw reused()
    if (!expired && row.status === 'DONE')
      return { claimed: false, status: row.response_status as number, body: row.response_body as string }
    const abandoned = row.status === 'RUNNING' && Date.parse(row.locked_at) <= now - staleAfterMs
    if (!expired && !abandoned) throw inUse()
    if (await repository.takeOver(db, row, claim)) return { claimed: true, claimId: claim.claim_id }
  }
  throw inUse()
}

/**
 * Marks a claim DONE with its response, inside the transaction of the request's work (so both commit
 * or neither); false when a retry has taken the claim over meanwhile.
 */
export const completeClaim = repository.completeClaim
/** Releases a claim whose request stored nothing (a 5xx, a 429): a retry runs again. */
export const deleteClaim = repository.deleteClaim

/** Deletes expired keys every ten minutes (and once at start) until closed. */
export class ExpiredKeyPruner {
  private timer: NodeJS.Timeout | undefined
  private pruning: Promise<void> | undefined
  private closed = false

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = PRUNE_INTERVAL_MS,
  ) {}

  start(): void {
    if (this.closed || this.timer) return
    this.schedule(0)
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    await this.pruning
  }

  /** Deletes every key expired by `now`, a batch at a time; returns how many went. */
  async prune(now = Date.now()): Promise<number> {
    const cutoff = new Date(now).toISOString()
    let deleted = 0
    for (;;) {
      const batch = await repository.deleteExpired(this.db, cutoff, PRUNE_BATCH)
      deleted += batch
      if (batch < PRUNE_BATCH || this.closed) return deleted
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.pruning = this.prune()
        .then(
          () => undefined,
          (error) => this.log.warn({ err: error }, 'pruning expired idempotency keys failed'),
        )
        .finally(() => {
          this.pruning = undefined
          if (!this.closed) this.schedule(this.intervalMs)
        })
    }, delayMs)
    this.timer.unref()
  }
}
