import type { Kysely } from 'kysely'
import type { Database } from '../db/types.js'
import { createOrganisation } from '../modules/organisations/service.js'

export async function seedDemoOrganisation(
  db: Kysely<Database>,
): Promise<{ organisationId: string; created: boolean }> {
  const org = await createOrganisation(db, { name: 'Demo', plan: 'PRO' })
  return { organisationId: org.id, created: true }
}
