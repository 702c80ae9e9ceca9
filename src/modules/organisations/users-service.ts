// Business rules for the team: one email per user within an organisation (compared after trimming and
// lower-casing), and deactivation instead of deletion, so shifts and jobs keep their worker. A user
// loses every dashboard session when their password changes, when deactivated and when made a WORKER.
import type { Kysely, Transaction } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, Executor } from '../../db/types.js'
import { AppError, notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import {
  assertAcceptablePassword,
  DEFAULT_SCRYPT,
  hashPassword,
  type ScryptParams,
} from '../sessions/passwords.js'
import { endUserSessions } from '../sessions/service.js'
import * as repository from './users-repository.js'
import type { CreateUserBody, UpdateUserBody, User, UserListQuery } from './users-schemas.js'

export type { AssignableUser, SignInCandidate, UserRow } from './users-repository.js'

export function serializeUser(row: repository.UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    isActive: Boolean(row.is_active),
    hasPassword: row.password_hash !== null,
    colour: row.colour,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

const emailTaken = (email: string) =>
  new AppError('CONFLICT', `Another user of your organisation already has the email ${email}`, [
    { path: '/body/email', message: 'is already taken' },
  ])

/** Runs a write, turning a unique-index refusal (a concurrent insert of the same email) into 409. */
async function guardEmailRace<T>(email: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (email !== undefined && isUniqueViolation(error)) throw emailTaken(email)
    throw error
  }
}

async function assertEmailFree(
  db: Executor,
  organisationId: string,
  email: string,
  exceptUserId?: string,
): Promise<void> {
  const holder = await repository.findUserByEmail(db, organisationId, email)
  if (holder && holder.id !== exceptUserId) throw emailTaken(email)
}

/** The user if it exists in the organisation and is active: who may be given shifts and jobs. */
export async function findActiveUser(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<repository.UserRow | undefined> {
  return repository.findActiveUser(db, organisationId, id)
}

/** The users job assignments name (jobs' dispatch), locked until the caller's transaction ends. */
export function findUsersForAssignment(
  trx: Transaction<Database>,
  organisationId: string,
  ids: readonly string[],
): Promise<repository.AssignableUser[]> {
  return repository.findUsersForAssignment(trx, organisationId, ids)
}

/** The user holding an email address in the organisation (any case, surrounding spaces ignored). */
export function findUserByEmail(
  db: Executor,
  organisationId: string,
  email: string,
): Promise<repository.UserRow | undefined> {
  return repository.findUserByEmail(db, organisationId, normaliseEmail(email))
}

export async function listUsers(
  db: Executor,
  organisationId: string,
  query: UserListQuery,
): Promise<{ users: User[]; pagination: Pagination }> {
  const filters = { role: query.role, isActive: query.isActive, search: query.search?.trim() || undefined }
  const [rows, total] = await Promise.all([
    repository.listUsers(db, organisationId, filters, { limit: query.limit, offset: offsetOf(query) }),
    repository.countUsers(db, organisationId, filters),
  ])
  return { users: rows.map(serializeUser), pagination: paginationOf(query, total) }
}

export async function getUser(db: Executor, organisationId: string, id: string): Promise<User> {
  const row = await repository.findUser(db, organisationId, id)
  if (!row) throw notFound('User')
  return serializeUser(row)
}

export async function createUser(
  db: Kysely<Database>,
  organisationId: string,
  input: CreateUserBody,
): Promise<User> {
  const email = normaliseEmail(input.email)
  return guardEmailRace(email, () =>
    db.transaction().execute(async (trx) => {
      await assertEmailFree(trx, organisationId, email)
      const now = nowIso()
      const row: repository.NewUser = {
        id: newId(),
        organisation_id: organisationId,
        name: input.name,
        email,
        role: input.role ?? 'WORKER',
        is_active: true,
        created_at: now,
        updated_at: now,
      }
      await repository.insertUser(trx, row)
      return getUser(trx, organisationId, row.id)
    }),
  )
}

export async function updateUser(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: UpdateUserBody,
): Promise<User> {
  const email = input.email === undefined ? undefined : normaliseEmail(input.email)
  return guardEmailRace(email, () =>
    db.transaction().execute(async (trx) => {
      const current = await repository.findUser(trx, organisationId, id)
      if (!current) throw notFound('User')
      const changes: repository.UserUpdate = {}
      if (input.name !== undefined && input.name !== current.name) changes.name = input.name
      if (input.role !== undefined && input.role !== current.role) changes.role = input.role
      if (input.colour !== undefined && input.colour !== current.colour) changes.colour = input.colour
      if (email !== undefined && email !== current.email) {
        await assertEmailFree(trx, organisationId, email, id)
        changes.email = email
      }
      if (Object.keys(changes).length > 0) {
        await repository.updateUser(trx, organisationId, id, { ...changes, updated_at: nowIso() })
      }
      if (changes.role === 'WORKER') await endUserSessions(trx, organisationId, id)
      return getUser(trx, organisationId, id)
    }),
  )
}

/** Activates or deactivates a user; asking for the state it already has changes nothing. */
export async function setUserActive(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  isActive: boolean,
): Promise<User> {
  return db.transaction().execute(async (trx) => {
    const current = await repository.findUser(trx, organisationId, id)
    if (!current) throw notFound('User')
    if (Boolean(current.is_active) !== isActive) {
      await repository.updateUser(trx, organisationId, id, {
        is_active: sqlBool(isActive),
        updated_at: nowIso(),
      })
    }
    if (!isActive) await endUserSessions(trx, organisationId, id)
    return getUser(trx, organisationId, id)
  })
}

/**
 * Sets (or replaces) a user's password and signs them out everywhere. The password is checked and
 * hashed before the transaction: scrypt takes a noticeable fraction of a second by design.
 */
export async function setUserPassword(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<User> {
  assertAcceptablePassword(password)
  if (!(await repository.findUser(db, organisationId, id))) throw notFound('User')
  const passwordHash = await hashPassword(password, params)
  return db.transaction().execute(async (trx) => {
    const now = nowIso()
    const updated = await repository.updateUser(trx, organisationId, id, {
      password_hash: passwordHash,
      password_changed_at: now,
      updated_at: now,
    })
    if (updated === 0) throw notFound('User')
    await endUserSessions(trx, organisationId, id)
    return getUser(trx, organisationId, id)
  })
}

/** Every organisation's user with this email, for sign-in (the only look-up across organisations). */
export function findSignInCandidates(db: Executor, email: string): Promise<repository.SignInCandidate[]> {
  return repository.findSignInCandidates(db, normaliseEmail(email))
}

/** The most users one email has across organisations: sign-in verifies this many passwords every time. */
export function largestSignInCandidateCount(db: Executor): Promise<number> {
  return repository.largestSignInCandidateCount(db)
}

/**
 * Stores a stronger hash of the same password (made at sign-in): not a password change. False when
 * the hash was no longer `previousHash` (the password changed meanwhile), and nothing was stored.
 */
export function upgradePasswordHash(
  db: Executor,
  organisationId: string,
  id: string,
  previousHash: string,
  passwordHash: string,
): Promise<boolean> {
  return repository.replacePasswordHash(db, organisationId, id, previousHash, passwordHash)
}

/**
 * Writes a user as given (its id and timestamps included): for the demo organisation (cli/demo-seed.ts), which writes a history no request could make; no rule is
 * checked, the demo's data is known good.
 */
export async function seedUser(db: Executor, row: repository.NewUser): Promise<void> {
  await repository.insertUser(db, row)
}
