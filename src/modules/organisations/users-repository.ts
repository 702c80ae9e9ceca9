// Team members (workers and dispatchers) of an organisation.
import { type ExpressionBuilder, type Selectable, sql, type Transaction, type Updateable } from 'kysely'
import { isPostgres, sqlBool } from '../../db/database.js'
import type { Database, Executor, PlanTier, UserRole, UsersTable } from '../../db/types.js'

export type UserRow = Selectable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
/** A new user: without a password unless one is given, in the least used colour unless one is given. */
export type NewUser = Omit<UserRow, 'password_hash' | 'password_changed_at' | 'colour'> &
  Partial<Pick<UserRow, 'password_hash' | 'password_changed_at' | 'colour'>>

/** The worker colours (1–8): the dashboard's route palette. */
export const USER_COLOURS = 8

export interface UserFilters {
  role?: UserRole
  isActive?: boolean
  search?: string
}

/** `%term%` for LIKE, with LIKE's own wildcards in the term matched literally. */
function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

function listConditions(
  eb: ExpressionBuilder<Database, 'users'>,
  organisationId: string,
  filters: UserFilters,
) {
  const conditions = [eb('organisation_id', '=', organisationId)]
  if (filters.role !== undefined) conditions.push(eb('role', '=', filters.role))
  if (filters.isActive !== undefined) conditions.push(eb('is_active', '=', sqlBool(filters.isActive)))
  if (filters.search) {
    const pattern = containsPattern(filters.search)
    // lower() is Unicode-aware on both engines (SQLite's is replaced at connection time).
    conditions.push(
      eb.or([
        sql<boolean>`lower(${eb.ref('name')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${eb.ref('email')}) like ${pattern} escape '\\'`,
      ]),
    )
  }
  return eb.and(conditions)
}

export async function listUsers(
  db: Executor,
  organisationId: string,
  filters: UserFilters,
  page: { limit: number; offset: number },
): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => listConditions(eb, organisationId, filters))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countUsers(
  db: Executor,
  organisationId: string,
  filters: UserFilters,
): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => listConditions(eb, organisationId, filters))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findUser(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function findActiveUser(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('is_active', '=', sqlBool(true))
    .executeTakeFirst()
}

/** What assigning a job to a user depends on. */
export interface AssignableUser {
  id: string
  is_active: boolean | number
}

/**
 * Users by id, in id order (the order their locks are taken in); on PostgreSQL share-locked until the
 * transaction ends, so a concurrent deactivation or deletion waits and then sees the job.
 */
export async function findUsersForAssignment(
  trx: Transaction<Database>,
  organisationId: string,
  ids: readonly string[],
): Promise<AssignableUser[]> {
  if (ids.length === 0) return []
  const query = trx
    .selectFrom('users')
    .select(['id', 'is_active'])
    .where('organisation_id', '=', organisationId)
    .where('id', 'in', ids)
    .orderBy('id')
  return (isPostgres(trx) ? query.forShare() : query).execute()
}

/** The user holding an email address (stored normalised, so an exact match). */
export async function findUserByEmail(
  db: Executor,
  organisationId: string,
  email: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('email', '=', email)
    .executeTakeFirst()
}

/**
 * The colour fewest of the organisation's active users have, the lowest of those on a tie: the first
 * eight people never share one, and a colour freed by someone leaving is the next one given. Two users
 * created at the same instant may get the same colour; an admin can change it, nothing depends on it.
 */
export async function leastUsedColour(db: Executor, organisationId: string): Promise<number> {
  const used = await db
    .selectFrom('users')
    .select(['colour', (eb) => eb.fn.countAll<number>().as('users')])
    .where('organisation_id', '=', organisationId)
    .where('is_active', '=', sqlBool(true))
    .groupBy('colour')
    .execute()
  const countOf = new Map(used.map((row) => [Number(row.colour), Number(row.users)]))
  let least = 1
  for (let colour = 2; colour <= USER_COLOURS; colour++) {
    if ((countOf.get(colour) ?? 0) < (countOf.get(least) ?? 0)) least = colour
  }
  return least
}

export async function insertUser(db: Executor, row: NewUser): Promise<void> {
  const colour = row.colour ?? (await leastUsedColour(db, row.organisation_id))
  await db
    .insertInto('users')
    .values({ ...row, colour, is_active: sqlBool(Boolean(row.is_active)) })
    .execute()
}

export async function updateUser(
  db: Executor,
  organisationId: string,
  id: string,
  changes: UserUpdate,
): Promise<number> {
  const result = await db
    .updateTable('users')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** A user who may be signing in: every organisation's user with this (normalised) email. */
export interface SignInCandidate extends UserRow {
  organisation_name: string
  organisation_plan: PlanTier
}

/** The one query that crosses organisations: sign-in, where the organisation is not known yet. */
export async function findSignInCandidates(db: Executor, email: string): Promise<SignInCandidate[]> {
  return db
    .selectFrom('users')
    .innerJoin('organisations', 'organisations.id', 'users.organisation_id')
    .selectAll('users')
    .select(['organisations.name as organisation_name', 'organisations.plan as organisation_plan'])
    .where('users.email', '=', email)
    .orderBy('organisations.name')
    .orderBy('organisations.id')
    .execute()
}

/**
 * The most users any one email has across organisations (0 without users): how many password
 * verifications every sign-in runs. Read across organisations, like the candidates.
 */
export async function largestSignInCandidateCount(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select(sql<number>`count(*)`.as('users'))
    .groupBy('email')
    .orderBy(sql`count(*)`, 'desc')
    .limit(1)
    .executeTakeFirst()
  return Number(row?.users ?? 0)
}

/** Swaps a password hash for another of the same password, unless it was changed meanwhile (false). */
export async function replacePasswordHash(
  db: Executor,
  organisationId: string,
  id: string,
  previousHash: string,
  passwordHash: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('password_hash', '=', previousHash)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
