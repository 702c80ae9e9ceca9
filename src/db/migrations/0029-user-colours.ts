// A worker's colour (issue 30 §2): the one the board, the maps, a plan's preview and the phone draw
// them in, 1–8 (the dashboard's --route-1 … --route-8). It was a hash of the user's id, and a hash
// gives two of a team of six the same colour more often than not; a stored colour can be chosen
// distinct. Existing users are numbered in id order (ids are UUIDv7: creation order) within their
// organisation, so its first eight people get eight colours. NOT NULL with a default: SQLite adds
// such a column in place, and an older build still serving meanwhile inserts users with colour 1.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, _dialect: MigrationDialect): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('colour', 'integer', (c) => c.notNull().defaultTo(1).check(sql`colour between 1 and 8`))
    .execute()
  // The rank of a user's id among their organisation's: a correlated count, the same on both engines.
  await sql`
    update users set colour = (
      select count(*) from users as earlier
      where earlier.organisation_id = users.organisation_id and earlier.id < users.id
    ) % 8 + 1
  `.execute(db)
}
