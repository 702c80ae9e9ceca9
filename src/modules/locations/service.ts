import type { Kysely, Transaction } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import { newId, nowIso } from '../../db/ids.js'
import { referenceExists } from '../../db/references.js'
import type { Database, Executor, LocationRow } from '../../db/types.js'
import { toDecimalString } from '../../db/values.js'
import { AppError, describeUsage, notFound, validationError } from '../../http/errors.js'
import { listOrderOf, readPage } from '../../http/list-order.js'
import type { ChangeFeedPagination } from '../../http/schemas.js'
import type { CreateLocationBody, UpdateLocationBody } from './admin-schemas.js'
import type { LocationUpdate } from './repository.js'
import * as repository from './repository.js'
import type { Location, LocationListQuery } from './schemas.js'
import { serializeLocation } from './serialize.js'

export async function listLocations(
  db: Executor,
  organisationId: string,
  query: LocationListQuery,
  settleMs = 0,
): Promise<{ locations: Location[]; pagination: ChangeFeedPagination }> {
  const filters = { isActive: query.isActive }
  const order = listOrderOf(query, settleMs)
  const { rows, pagination } = await readPage(
    query,
    order,
    (limit) => repository.listLocations(db, organisationId, filters, order, limit),
    () => repository.countLocations(db, organisationId, filters, order),
  )
  return { locations: rows.map(serializeLocation), pagination }
}

export async function getLocation(db: Executor, organisationId: string, id: string): Promise<Location> {
  const row = await repository.findLocation(db, organisationId, id)
  if (!row) throw notFound('Location')
  return serializeLocation(row)
}

/**
 * Whether the location exists in the organisation, for a row about to reference it: on PostgreSQL the
 * location stays locked against deletion until the caller's transaction ends.
 */
export async function referenceLocation(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<boolean> {
  return referenceExists(trx, 'locations', organisationId, id)
}

/**
 * The time zone a job's times are said in: its depot's, else the organisation's default (its primary
 * depot's, else its first one's), else UTC — the rule route plans read days by.
 */
export async function timeZoneOfDepot(
  db: Executor,
  organisationId: string,
  locationId: string | null,
): Promise<string> {
  return (await repository.findTimeZone(db, organisationId, locationId)) ?? 'UTC'
}

const TIME_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC'])
// ICU lists one canonical name per zone, and its canonical names lag behind IANA's (it lists
// Asia/Calcutta, not Asia/Kolkata): other names are accepted when ICU knows them and they are
// spelled the IANA way (Area/Location, capitalised), so "europe/london" is still refused.
const IANA_NAME = /^[A-Z][A-Za-z_-]*(\/[A-Z][A-Za-z0-9_+-]*){1,2}$/

export function isTimeZone(name: string): boolean {
  if (TIME_ZONES.has(name)) return true
  if (!IANA_NAME.test(name)) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}

function assertTimeZone(name: string | undefined): void {
  if (name !== undefined && !isTimeZone(name)) {
    throw validationError('/body/timezone', `"${name}" is not an IANA time zone name, e.g. Europe/London`)
  }
}

const codeTaken = (code: string) =>
  new AppError('CONFLICT', `Your organisation already has a location with the code "${code}"`, [
    { path: '/body/code', message: 'is already taken' },
  ])

/** The unique index on (organisation_id, code) refused the write (not the one-primary index). */
function isCodeViolation(error: unknown): boolean {
  if (!isUniqueViolation(error)) return false
  const { constraint, message } = error as { constraint?: string; message?: string }
  return constraint === 'locations_organisation_id_code_key' || /locations\.code/.test(message ?? '')
}

/** Runs a write, turning a unique-index refusal (a concurrent write of the same code) into 409. */
async function guardCodeRace<T>(code: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (code !== undefined && isCodeViolation(error)) throw codeTaken(code)
    throw error
  }
}

async function assertCodeFree(db: Executor, organisationId: string, code: string, exceptId?: string) {
  const holder = await repository.findLocationIdByCode(db, organisationId, code)
  if (holder !== undefined && holder !== exceptId) throw codeTaken(code)
}

export async function createLocation(
  db: Kysely<Database>,
  organisationId: string,
  input: CreateLocationBody,
): Promise<Location> {
  assertTimeZone(input.timezone)
  return guardCodeRace(input.code, () =>
    db.transaction().execute(async (trx) => {
      await assertCodeFree(trx, organisationId, input.code)
      const now = nowIso()
      const row: LocationRow = {
        id: newId(),
        organisation_id: organisationId,
        name: input.name,
        code: input.code,
        description: input.description ?? '',
        address: input.address ?? '',
        latitude: toDecimalString(input.latitude),
        longitude: toDecimalString(input.longitude),
        timezone: input.timezone,
        is_primary: input.isPrimary ?? false,
        is_active: input.isActive ?? true,
        created_at: now,
        updated_at: now,
      }
      // The old primary is cleared first: the unique index never sees two primaries, even mid-transaction.
      if (row.is_primary) {
        await repository.lockPrimaryLocation(trx, organisationId)
        await repository.clearPrimaryLocation(trx, organisationId, row.id, now)
      }
      await repository.insertLocation(trx, row)
      return getLocation(trx, organisationId, row.id)
    }),
  )
}

function changesOf(current: LocationRow, input: UpdateLocationBody): LocationUpdate {
  const requested: LocationUpdate = {}
  if (input.name !== undefined) requested.name = input.name
  if (input.code !== undefined) requested.code = input.code
  if (input.description !== undefined) requested.description = input.description
  if (input.address !== undefined) requested.address = input.address
  if (input.latitude !== undefined) requested.latitude = toDecimalString(input.latitude)
  if (input.longitude !== undefined) requested.longitude = toDecimalString(input.longitude)
  if (input.timezone !== undefined) requested.timezone = input.timezone
  if (input.isPrimary !== undefined && input.isPrimary !== Boolean(current.is_primary)) {
    requested.is_primary = sqlBool(input.isPrimary)
  }
  if (input.isActive !== undefined && input.isActive !== Boolean(current.is_active)) {
    requested.is_active = sqlBool(input.isActive)
  }
  const changes: LocationUpdate = {}
  for (const [column, value] of Object.entries(requested) as [keyof LocationRow, unknown][]) {
    if (current[column] !== value) (changes as Record<string, unknown>)[column] = value
  }
  return changes
}

export async function updateLocation(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: UpdateLocationBody,
): Promise<Location> {
  assertTimeZone(input.timezone)
  return guardCodeRace(input.code, () =>
    db.transaction().execute(async (trx) => {
      const current = await repository.findLocationForUpdate(trx, organisationId, id)
      if (!current) throw notFound('Location')
      const changes = changesOf(current, input)
      if (Object.keys(changes).length === 0) return serializeLocation(current)
      if (changes.code !== undefined) await assertCodeFree(trx, organisationId, changes.code, id)
      changes.updated_at = nowIso()
      if (changes.is_primary) {
        await repository.lockPrimaryLocation(trx, organisationId)
        await repository.clearPrimaryLocation(trx, organisationId, id, changes.updated_at)
      }
      await repository.updateLocation(trx, organisationId, id, changes)
      return getLocation(trx, organisationId, id)
    }),
  )
}

export async function deleteLocation(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<{ id: string; deletedAt: string }> {
  return db.transaction().execute(async (trx) => {
    if (!(await repository.findLocationForUpdate(trx, organisationId, id))) throw notFound('Location')
    const references = await repository.countLocationReferences(trx, organisationId, id)
    const { vehicles, shifts, jobs, series } = references
    if (vehicles + shifts + jobs + series > 0) {
      const users = describeUsage({ vehicle: vehicles, shift: shifts, job: jobs, 'job series': series })
      throw new AppError(
        'IN_USE',
        `Location is used by ${users}; move or delete them first, ` +
          'or deactivate the location instead (PATCH isActive false)',
      )
    }
    await repository.detachDeletedJobs(trx, organisationId, id)
    await repository.deleteLocation(trx, organisationId, id)
    return { id, deletedAt: nowIso() }
  })
}

/**
 * Writes a location as given (its id and timestamps included): for the demo organisation (cli/demo-seed.ts), which writes a history no request could make; no rule is
 * checked, the demo's data is known good.
 */
export async function seedLocation(db: Executor, row: LocationRow): Promise<void> {
  await repository.insertLocation(db, row)
}
