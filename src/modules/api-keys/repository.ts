import type { ExpressionBuilder, Transaction, Updateable } from 'kysely'
import { lockForUpdate } from '../../db/locking.js'
import type { ApiKeyRow, ApiKeysTable, Database, Executor, PlanTier } from '../../db/types.js'

export interface ApiKeyWithPlan extends ApiKeyRow {
  plan: PlanTier
}

export async function insertApiKey(db: Executor, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute()
}

/** The one key look-up that is not scoped by organisation: the key is what tells us the organisation. */
export async function findApiKeyByHash(db: Executor, keyHash: string): Promise<ApiKeyWithPlan | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('organisations', 'organisations.id', 'api_keys.organisation_id')
    .selectAll('api_keys')
    .select('organisations.plan')
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst()
}

/** Operator look-up by id, display prefix or key hash, across organisations (CLI only). */
export async function findApiKeysForOperator(
  db: Executor,
  by: { idOrPrefix: string } | { keyHash: string },
): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where((eb) =>
      'keyHash' in by
        ? eb('key_hash', '=', by.keyHash)
        : eb.or([eb('id', '=', by.idOrPrefix), eb('prefix', '=', by.idOrPrefix)]),
    )
    .execute()
}

/** Deletes an organisation's keys of these names (the demo's own keys); returns how many. */
export async function deleteApiKeysNamed(
  db: Executor,
  organisationId: string,
  names: readonly string[],
): Promise<number> {
  const result = await db
    .deleteFrom('api_keys')
    .where('organisation_id', '=', organisationId)
    .where('name', 'in', names)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

export async function listApiKeys(db: Executor, organisationId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

export interface ApiKeyFilters {
  includeRevoked: boolean
}

function listConditions(
  eb: ExpressionBuilder<Database, 'api_keys'>,
  organisationId: string,
  filters: ApiKeyFilters,
) {
  const conditions = [eb('organisation_id', '=', organisationId)]
  if (!filters.includeRevoked) conditions.push(eb('revoked_at', 'is', null))
  return eb.and(conditions)
}

export async function listApiKeyPage(
  db: Executor,
  organisationId: string,
  filters: ApiKeyFilters,
  page: { limit: number; offset: number },
): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where((eb) => listConditions(eb, organisationId, filters))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countApiKeys(
  db: Executor,
  organisationId: string,
  filters: ApiKeyFilters,
): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => listConditions(eb, organisationId, filters))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findApiKey(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function findApiKeyForUpdate(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<ApiKeyRow | undefined> {
  return lockForUpdate(
    trx,
    trx.selectFrom('api_keys').selectAll().where('organisation_id', '=', organisationId).where('id', '=', id),
  ).executeTakeFirst()
}

/**
 * Records the successor of a key that has none yet, with the old key's new expiry or revocation.
 * Returns false when the key already has a successor: of two concurrent rotations only one writes.
 */
export async function markApiKeyReplaced(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Pick<Updateable<ApiKeysTable>, 'expires_at' | 'revoked_at'> & { replaced_by_id: string },
): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('replaced_by_id', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function revokeApiKey(
  db: Executor,
  organisationId: string,
  id: string,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export async function touchApiKey(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute()
}
