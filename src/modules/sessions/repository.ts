// Dashboard sessions. A session is found by the hash of its cookie alone (that is the credential);
// every other query is scoped by organisation.
import { isPostgres, sqlBool } from '../../db/database.js'
import type { Executor, PlanTier, ServerSecretsTable, UserRole, UserSessionRow } from '../../db/types.js'

/** A session with what every request needs to know about its user and organisation, read live. */
export interface SessionRecord extends UserSessionRow {
  user_name: string
  user_email: string
  user_colour: number
  user_role: UserRole
  user_is_active: boolean | number
  organisation_name: string
  organisation_plan: PlanTier
}

/** What a sign-in checked: the user's password hash and role (and that the user was active). */
export interface SignInCredential {
  passwordHash: string
  role: UserRole
}

/**
 * True when the user still holds the credential a sign-in verified and is still active. On
 * PostgreSQL the user row stays share-locked until the caller's transaction ends, so a password
 * change, deactivation or role change (each an UPDATE of that row, then signing the user out
 * everywhere) either committed before this read, which then sees it, or waits for the caller's
 * session to be committed and then ends it. SQLite runs one transaction at a time.
 */
export async function holdsCredential(
  trx: Executor,
  organisationId: string,
  userId: string,
  credential: SignInCredential,
): Promise<boolean> {
  let query = trx
    .selectFrom('users')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', userId)
    .where('password_hash', '=', credential.passwordHash)
    .where('role', '=', credential.role)
    .where('is_active', '=', sqlBool(true))
  if (isPostgres(trx)) query = query.forShare()
  return (await query.executeTakeFirst()) !== undefined
}

export async function insertSession(db: Executor, row: UserSessionRow): Promise<void> {
  await db.insertInto('user_sessions').values(row).execute()
}

export async function findSession(db: Executor, id: string): Promise<SessionRecord | undefined> {
  return db
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', (join) =>
      join.onRef('u.organisation_id', '=', 's.organisation_id').onRef('u.id', '=', 's.user_id'),
    )
    .innerJoin('organisations as o', 'o.id', 's.organisation_id')
    .selectAll('s')
    .select([
      'u.name as user_name',
      'u.email as user_email',
      'u.colour as user_colour',
      'u.role as user_role',
      'u.is_active as user_is_active',
      'o.name as organisation_name',
      'o.plan as organisation_plan',
    ])
    .where('s.id', '=', id)
    .executeTakeFirst()
}

/** Moves last_seen_at forward unless a concurrent request already did. */
export async function touchSession(db: Executor, id: string, seenAt: string): Promise<void> {
  await db
    .updateTable('user_sessions')
    .set({ last_seen_at: seenAt })
    .where('id', '=', id)
    .where('last_seen_at', '<', seenAt)
    .execute()
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('user_sessions').where('id', '=', id).execute()
}

/** Signs a user out everywhere; returns how many sessions ended. */
export async function deleteUserSessions(
  db: Executor,
  organisationId: string,
  userId: string,
): Promise<number> {
  const result = await db
    .deleteFrom('user_sessions')
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * Drops sessions that can no longer be used: every one past its absolute end, and the user's own
 * that have been idle too long (others' idle ones go when their absolute end passes).
 */
export async function deleteEndedSessions(
  db: Executor,
  now: string,
  user: { organisationId: string; userId: string; idleSince: string },
): Promise<void> {
  await db.deleteFrom('user_sessions').where('expires_at', '<=', now).execute()
  await db
    .deleteFrom('user_sessions')
    .where('organisation_id', '=', user.organisationId)
    .where('user_id', '=', user.userId)
    .where('last_seen_at', '<=', user.idleSince)
    .execute()
}

export async function findServerSecret(db: Executor, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst()
  return row?.value
}

/** Stores a new secret unless one of that name exists (another instance made it first): then nothing. */
export async function insertServerSecret(db: Executor, row: ServerSecretsTable): Promise<void> {
  await db
    .insertInto('server_secrets')
    .values(row)
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
}
