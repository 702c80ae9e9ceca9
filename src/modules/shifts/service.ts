import type { Executor, ShiftBreakRow } from '../../db/types.js'
import { notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import * as repository from './repository.js'
import type { Shift, ShiftListQuery } from './schemas.js'
import { serializeShift } from './serialize.js'

/** Breaks of every given shift: one query however many shifts there are. */
async function serializeShifts(
  db: Executor,
  organisationId: string,
  rows: readonly repository.ShiftListedRow[],
): Promise<Shift[]> {
  const breaks = await repository.findBreaksOfShifts(
    db,
    organisationId,
    rows.map((row) => row.id),
  )
  const breaksByShift = new Map<string, ShiftBreakRow[]>()
  for (const b of breaks) {
    const group = breaksByShift.get(b.shift_id)
    if (group) group.push(b)
    else breaksByShift.set(b.shift_id, [b])
  }
  return rows.map((row) => serializeShift(row, breaksByShift.get(row.id) ?? []))
}

export async function listShifts(
  db: Executor,
  organisationId: string,
  query: ShiftListQuery,
): Promise<{ shifts: Shift[]; pagination: Pagination }> {
  const filters = { locationId: query.locationId, userId: query.userId, day: query.day }
  const [rows, total] = await Promise.all([
    repository.listShifts(db, organisationId, filters, { limit: query.limit, offset: offsetOf(query) }),
    repository.countShifts(db, organisationId, filters),
  ])
  return { shifts: await serializeShifts(db, organisationId, rows), pagination: paginationOf(query, total) }
}

export async function getShift(db: Executor, organisationId: string, id: string): Promise<Shift> {
  const row = await repository.findShift(db, organisationId, id)
  if (!row) throw notFound('Shift')
  return (await serializeShifts(db, organisationId, [row]))[0]!
}
