import type { Executor } from '../../db/types.js'
import { notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import * as repository from './repository.js'
import type { Location, LocationListQuery } from './schemas.js'
import { serializeLocation } from './serialize.js'

export async function listLocations(
  db: Executor,
  organisationId: string,
  query: LocationListQuery,
): Promise<{ locations: Location[]; pagination: Pagination }> {
  const filters = { isActive: query.isActive }
  const [rows, total] = await Promise.all([
    repository.listLocations(db, organisationId, filters, { limit: query.limit, offset: offsetOf(query) }),
    repository.countLocations(db, organisationId, filters),
  ])
  return { locations: rows.map(serializeLocation), pagination: paginationOf(query, total) }
}

export async function getLocation(db: Executor, organisationId: string, id: string): Promise<Location> {
  const row = await repository.findLocation(db, organisationId, id)
  if (!row) throw notFound('Location')
  return serializeLocation(row)
}

export async function locationExists(db: Executor, organisationId: string, id: string): Promise<boolean> {
  return (await repository.findLocation(db, organisationId, id)) !== undefined
}
