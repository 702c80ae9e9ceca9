// A location's code is unique within its organisation (two depots both called "NTH" on a route
// sheet are no use). Codes already duplicated are made unique first rather than refused: in each
// organisation the oldest location keeps its code and each later one gets the first free suffix,
// "NTH-2", "NTH-3", … (the code shortened to stay within its 32 characters), with updatedAt moved
// so integrations that sync by updatedAt see the change. Frozen in time: never import application
// code here.
import type { Kysely } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

const MAX_CODE_LENGTH = 32

/** The first `code-N` (N ≥ 2) not in `taken`, shortening the code so it fits. */
function freeCode(code: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n++) {
    const suffix = `-${n}`
    const candidate = `${code.slice(0, MAX_CODE_LENGTH - suffix.length)}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}

export async function up(db: Kysely<any>, _dialect: MigrationDialect): Promise<void> {
  const rows: { id: string; organisation_id: string; code: string }[] = await db
    .selectFrom('locations')
    .select(['id', 'organisation_id', 'code'])
    .orderBy('organisation_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const taken = new Map<string, Set<string>>()
  for (const row of rows) {
    const codes = taken.get(row.organisation_id) ?? new Set<string>()
    codes.add(row.code)
    taken.set(row.organisation_id, codes)
  }
  const kept = new Set<string>()
  const now = new Date().toISOString()
  for (const row of rows) {
    const key = `${row.organisation_id}\u0000${row.code}`
    if (!kept.has(key)) {
      kept.add(key)
      continue
    }
    const codes = taken.get(row.organisation_id) as Set<string>
    const code = freeCode(row.code, codes)
    codes.add(code)
    await db.updateTable('locations').set({ code, updated_at: now }).where('id', '=', row.id).execute()
  }
  await db.schema
    .createIndex('locations_organisation_id_code_key')
    .on('locations')
    .columns(['organisation_id', 'code'])
    .unique()
    .execute()
}
