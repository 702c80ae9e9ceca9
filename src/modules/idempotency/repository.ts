// SQL of idempotency keys. Every statement names the organisation; completing or releasing a claim
// also names the claim, so a request whose claim was taken over can no longer touch the row.
import type { Executor, IdempotencyKeyRow } from '../../db/types.js'

export interface NewClaim {
  organisation_id: string
  key: string
  fingerprint: string
  claim_id: string
  locked_at: string
  created_at: string
  expires_at: string
}

/** True when the row was inserted; false when the organisation already has this key. */
export async function insertClaim(db: Executor, claim: NewClaim): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ ...claim, status: 'RUNNING', response_status: null, response_body: null })
    .onConflict((conflict) => conflict.columns(['organisation_id', 'key']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
}

export async function findKey(
  db: Executor,
  organisationId: string,
  key: string,
): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('key', '=', key)
    .executeTakeFirst()
}

/**
 * Replaces an expired or abandoned row by a new claim, if it is still as it was read: not replaced by
 * another retry, and not completed meanwhile by the request that was thought dead.
 */
export async function takeOver(
  db: Executor,
  previous: Pick<IdempotencyKeyRow, 'claim_id' | 'status'>,
  claim: NewClaim,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({
      fingerprint: claim.fingerprint,
      status: 'RUNNING',
      claim_id: claim.claim_id,
      response_status: null,
      response_body: null,
      locked_at: claim.locked_at,
      created_at: claim.created_at,
      expires_at: claim.expires_at,
    })
    .where('organisation_id', '=', claim.organisation_id)
    .where('key', '=', claim.key)
    .where('claim_id', '=', previous.claim_id)
    .where('status', '=', previous.status)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** RUNNING → DONE with the response, if the claim is still this one. */
export async function completeClaim(
  db: Executor,
  organisationId: string,
  key: string,
  claimId: string,
  response: { status: number; body: string },
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ status: 'DONE', response_status: response.status, response_body: response.body })
    .where('organisation_id', '=', organisationId)
    .where('key', '=', key)
    .where('claim_id', '=', claimId)
    .where('status', '=', 'RUNNING')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Forgets a RUNNING claim (nothing was committed), if it is still this one. */
export async function deleteClaim(
  db: Executor,
  organisationId: string,
  key: string,
  claimId: string,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('organisation_id', '=', organisationId)
    .where('key', '=', key)
    .where('claim_id', '=', claimId)
    .where('status', '=', 'RUNNING')
    .execute()
}

/** Deletes up to `batch` rows that expired before `cutoff`; returns how many went. */
export async function deleteExpired(db: Executor, cutoff: string, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where((eb) =>
      eb(
        eb.refTuple('organisation_id', 'key'),
        'in',
        db
          .selectFrom('idempotency_keys')
          .select(['organisation_id', 'key'])
          .where('expires_at', '<', cutoff)
          .limit(batch)
          .$asTuple('organisation_id', 'key'),
      ),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
