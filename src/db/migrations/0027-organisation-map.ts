// The organisation's map background (issue 30 §5): one tile server URL template and its attribution,
// set once by an admin and used by every map of the dashboard and the phone (it was a per-browser
// setting before, kept in localStorage; nothing is migrated from there). Null: no tiles, the maps draw
// on a plain background. Nullable columns only: an older build keeps serving meanwhile.
// Frozen in time: never import application code here.
import type { Kysely } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, _dialect: MigrationDialect): Promise<void> {
  await db.schema.alterTable('organisations').addColumn('map_tile_url', 'text').execute()
  await db.schema.alterTable('organisations').addColumn('map_attribution', 'text').execute()
}
