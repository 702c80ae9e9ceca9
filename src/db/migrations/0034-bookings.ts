// Booking windows (issue 32 §4): POST /availability hands out one booking token per offered arrival
// window, and POST /jobs with that token books it. Only the SHA-256 of a token is kept (like API keys
// and tracking links); a hold is single use (used_at) and expires ten minutes after it is issued.
// A new table only, so an older build keeps serving meanwhile.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? sql`timestamptz(3)` : sql`text`
  await db.schema
    .createTable('booking_holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('shift_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    /** The shift's date in its depot's calendar (YYYY-MM-DD). */
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('window_start', timestamp, (c) => c.notNull())
    .addColumn('window_end', timestamp, (c) => c.notNull())
    // What the window was computed for: the booked job must be this job.
    .addColumn('customer_id', 'text')
    .addColumn('latitude', 'text', (c) => c.notNull())
    .addColumn('longitude', 'text', (c) => c.notNull())
    .addColumn('service_duration', 'integer', (c) => c.notNull())
    /** JSON array of tag ids. */
    .addColumn('tag_ids', 'text', (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addColumn('used_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute()
  // Expired holds are pruned by organisation and age.
  await db.schema
    .createIndex('booking_holds_organisation_expiry')
    .on('booking_holds')
    .columns(['organisation_id', 'expires_at'])
    .execute()
}
