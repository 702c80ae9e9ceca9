import type { Insertable, Kysely } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { newId, nowIso } from '../../db/ids.js'
import type {
  Database,
  Executor,
  OrganisationRow,
  OrganisationsTable,
  OrganisationUpdate,
  PlanTier,
} from '../../db/types.js'
import { notFound } from '../../http/errors.js'
import { checkedAttribution, checkedTileUrl } from './map-settings.js'
import * as repository from './repository.js'
import type { MapSettings, Organisation, UpdateOrganisationBody } from './schemas.js'
import { serializeMapSettings, serializeOrganisation } from './serialize.js'

export const PLAN_TIERS: readonly PlanTier[] = ['FREE', 'STARTER', 'PRO', 'ENTERPRISE']
/** Spec §1: API access requires a paid plan tier. */
export const API_PLANS: ReadonlySet<PlanTier> = new Set(['PRO', 'ENTERPRISE'])

export async function createOrganisation(
  db: Kysely<Database>,
  input: { name: string; plan: PlanTier },
): Promise<OrganisationRow> {
  const name = input.name.trim()
  if (name === '') throw new Error('Organisation name must not be empty')
  const now = nowIso()
  const id = newId()
  await repository.insertOrganisation(db, { id, name, plan: input.plan, created_at: now, updated_at: now })
  const row = await repository.findOrganisation(db, id)
  if (!row) throw new Error(`organisation ${id} was not stored`)
  return row
}

export const findOrganisation = repository.findOrganisation
export const findOrganisationByName = repository.findOrganisationByName
export const listOrganisations = repository.listOrganisations

export async function changePlan(db: Kysely<Database>, id: string, plan: PlanTier): Promise<boolean> {
  return (await repository.updateOrganisation(db, id, { plan, updated_at: nowIso() })) > 0
}

export async function getOrganisation(
  db: Executor,
  id: string,
  smtpConfigured: boolean,
): Promise<Organisation> {
  const row = await repository.findOrganisation(db, id)
  if (!row) throw notFound('Organisation')
  return serializeOrganisation(row, smtpConfigured)
}

/** The map background every signed-in user's maps draw (workers' included). */
export async function getMapSettings(db: Executor, id: string): Promise<MapSettings> {
  const row = await repository.findOrganisation(db, id)
  if (!row) throw notFound('Organisation')
  return serializeMapSettings(row)
}

/** Renames or re-plans the caller's organisation; a plan change applies from the next request. */
export async function updateOrganisation(
  db: Kysely<Database>,
  id: string,
  input: UpdateOrganisationBody,
  smtpConfigured: boolean,
): Promise<{ organisation: Organisation; planChanged: boolean }> {
  return db.transaction().execute(async (trx) => {
    const current = await repository.findOrganisation(trx, id)
    if (!current) throw notFound('Organisation')
    const changes: OrganisationUpdate = {}
    if (input.name !== undefined && input.name !== current.name) changes.name = input.name
    if (input.plan !== undefined && input.plan !== current.plan) changes.plan = input.plan
    const routing = input.routing ?? {}
    if (routing.detourFactor !== undefined) changes.routing_detour_factor = routing.detourFactor
    if (routing.speedKmh !== undefined) changes.routing_speed_kmh = routing.speedKmh
    if (routing.latenessPenaltyPerMinute !== undefined) {
      changes.routing_lateness_penalty_per_minute = routing.latenessPenaltyPerMinute
    }
    const emails = input.notifications?.customerEmails ?? {}
    if (emails.enRoute !== undefined && emails.enRoute !== Boolean(current.notify_customer_en_route)) {
      changes.notify_customer_en_route = sqlBool(emails.enRoute)
    }
    if (emails.completed !== undefined && emails.completed !== Boolean(current.notify_customer_completed)) {
      changes.notify_customer_completed = sqlBool(emails.completed)
    }
    const map = input.map ?? {}
    if (map.tileUrl !== undefined) {
      const tileUrl = checkedTileUrl(map.tileUrl)
      if (tileUrl !== current.map_tile_url) changes.map_tile_url = tileUrl
    }
    if (map.attribution !== undefined) {
      const attribution = checkedAttribution(map.attribution)
      if (attribution !== current.map_attribution) changes.map_attribution = attribution
    }
    if (Object.keys(changes).length > 0)
      await repository.updateOrganisation(trx, id, { ...changes, updated_at: nowIso() })
    return {
      organisation: await getOrganisation(trx, id, smtpConfigured),
      planChanged: changes.plan !== undefined,
    }
  })
}

/**
 * Writes an organisation as given (its id and timestamps included): for the demo organisation (cli/demo-seed.ts), which writes a history no request could make; no rule is
 * checked, the demo's data is known good.
 */
export async function seedOrganisation(db: Executor, row: Insertable<OrganisationsTable>): Promise<void> {
  await repository.insertOrganisation(db, row)
}
