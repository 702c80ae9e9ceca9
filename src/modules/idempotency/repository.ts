// SQL of idempotency keys. Every statement names the organisation and the credential (a key is the
// credential's own: another API key or user with the same Idempotency-Key has a row of its own);
// completing or releasing a claim also names the claim, so a request whose claim was taken over can no
// longer touch the row.
import type { Executor, IdempotencyClaimRow } from '../../db/types.js'

/** Whose key it is: the organisation and the credential within it (`key:<id>` or `user:<id>`). */
export interface KeyOwner {
  organisationId: string
  credential: string
}

export interface NewClaim {
  organisation_id: string
  credential: string
  key: string
  fingerprint: string
  claim_id: string
  locked_at: string
  created_at: string
  expires_at: string
}

/** True when the row was inserted; false when the credential already has this key. */
export async function insertClaim(db: Executor, claim: NewClaim): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_claims')
    .values({ ...claim, status: 'RUNNING', response_status: null, response_body: null })
    .onConflict((conflict) => conflict.columns(['organisation_id', 'credential', 'key']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
}

export async function findKey(
  db: Executor,
  owner: KeyOwner,
  key: string,
): Promise<IdempotencyClaimRow | undefined> {
  return db
    .selectFrom('idempotency_claims')
    .selectAll()
    .where('organisation_id', '=', owner.organisationId)
    .where('credential', '=', owner.credential)
    .where('key', '=', key)
    .executeTakeFirst()
}

/**
 * Replaces an expired or abandoned row by a new claim, if it is still as it was read: not replaced by
 * another retry, and not completed meanwhile by the request that was thought dead.
 */
export async function takeOver(
  db: Executor,
  previous: Pick<IdempotencyClaimRow, 'claim_id' | 'status'>,
  claim: NewClaim,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_claims')
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
    .where('credential', '=', claim.credential)
    .where('key', '=', claim.key)
    .where('claim_id', '=', previous.claim_id)
    .where('status', '=', previous.status)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** RUNNING → DONE with the response, if the claim is still this one. */
export async function completeClaim(
  db: Executor,
  owner: KeyOwner,
  key: string,
  claimId: string,
  response: { status: number; body: string },
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_claims')
    .set({ status: 'DONE', response_status: response.status, response_body: response.body })
    .where('organisation_id', '=', owner.organisationId)
    .where('credential', '=', owner.credential)
    .where('key', '=', key)
    .where('claim_id', '=', claimId)
    .where('status', '=', 'RUNNING')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Forgets a RUNNING claim (nothing was committed), if it is still this one. */
export async function deleteClaim(
  db: Executor,
  owner: KeyOwner,
  key: string,
  claimId: string,
): Promise<void> {
  await db
    .deleteFrom('idempotency_claims')
    .where('organisation_id', '=', owner.organisationId)
    .where('credential', '=', owner.credential)
    .where('key', '=', key)
    .where('claim_id', '=', claimId)
    .where('status', '=', 'RUNNING')
    .execute()
}

/** Deletes up to `batch` rows that expired before `cutoff`; returns how many went. */
export async function deleteExpired(db: Executor, cutoff: string, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_claims')
    .where((eb) =>
      eb(
        eb.refTuple('organisation_id', 'credential', 'key'),
        'in',
        db
          .selectFrom('idempotency_claims')
          .select(['organisation_id', 'credential', 'key'])
          .where('expires_at', '<', cutoff)
          .limit(batch)
          .$asTuple('organisation_id', 'credential', 'key'),
      ),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
