import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, OrganisationRow, PlanTier } from '../../db/types.js'
import * as repository from './repository.js'

export const PLAN_TIERS: readonly PlanTier[] = ['FREE', 'STARTER', 'PRO', 'ENTERPRISE']
/** Spec §1: API access requires a paid plan tier. */
export const API_PLANS: ReadonlySet<PlanTier> = new Set(['PRO', 'ENTERPRISE'])

export function isPlanTier(value: string): value is PlanTier {
  return (PLAN_TIERS as readonly string[]).includes(value)
}

export async function createOrganisation(
  db: Kysely<Database>,
  input: { name: string; plan: PlanTier },
): Promise<OrganisationRow> {
  const name = input.name.trim()
  if (name === '') throw new Error('Organisation name must not be empty')
  const now = nowIso()
  const row: OrganisationRow = { id: newId(), name, plan: input.plan, created_at: now, updated_at: now }
  await repository.insertOrganisation(db, row)
  return row
}

export const findOrganisation = repository.findOrganisation
export const findOrganisationByName = repository.findOrganisationByName
export const listOrganisations = repository.listOrganisations

export async function changePlan(db: Kysely<Database>, id: string, plan: PlanTier): Promise<boolean> {
  return (await repository.updateOrganisationPlan(db, id, plan, nowIso())) > 0
}
