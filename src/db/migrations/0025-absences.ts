// Absences and one-off shift changes (issue 30 §3): a worker's holiday, sick day, training or other
// absence over whole calendar days (or part of one day), and a shift template's hours changed (or the
// shift cancelled) on one date. Dates are `YYYY-MM-DD` text on both dialects, read in the calendar of
// the depot of each shift they touch; times are `HH:MM`. New tables only: an older build keeps serving.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`
  const bool = pg ? sql`boolean` : sql`integer`

  await db.schema
    .createTable('absences')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    /** Both null: whole days; both set (start_date = end_date): part of that day. */
    .addColumn('start_time', 'text')
    .addColumn('end_time', 'text')
    /** HOLIDAY | SICK | TRAINING | OTHER */
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addForeignKeyConstraint('absences_user_fk', ['organisation_id', 'user_id'], 'users', [
      'organisation_id',
      'id',
    ])
    .execute()
  // Every read asks "whose absences touch these dates": by worker, then by the end of the range.
  await db.schema
    .createIndex('absences_user_dates_idx')
    .on('absences')
    .columns(['organisation_id', 'user_id', 'end_date', 'start_date'])
    .execute()
  await db.schema
    .createIndex('absences_dates_idx')
    .on('absences')
    .columns(['organisation_id', 'end_date', 'start_date'])
    .execute()

  await db.schema
    .createTable('shift_date_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('shift_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    /** Null when is_off: the shift does not happen on the date. */
    .addColumn('start_time', 'text')
    .addColumn('end_time', 'text')
    .addColumn('is_off', bool, (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('shift_date_changes_shift_date_key', ['organisation_id', 'shift_id', 'date'])
    .addForeignKeyConstraint(
      'shift_date_changes_shift_fk',
      ['organisation_id', 'shift_id'],
      'shifts',
      ['organisation_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute()
}
