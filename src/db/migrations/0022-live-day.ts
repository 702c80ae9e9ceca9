// The live day (issue 29): the positions phones send while their worker is on shift, the arrival
// time last announced for each job (so JOB_ETA_CHANGED fires once per real change, whatever the
// number of instances), and named leases for background work that one instance at a time must do
// (the minute's ETA refresh, pruning old positions). Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`
  const decimal = pg ? sql`numeric` : sql`text`
  const real = pg ? sql`double precision` : sql`real`
  await db.schema
    .createTable('positions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('latitude', decimal, (c) => c.notNull())
    .addColumn('longitude', decimal, (c) => c.notNull())
    /** Metres (the Geolocation API's accuracy), null when the device gave none. */
    .addColumn('accuracy', real)
    .addColumn('recorded_at', timestamp, (c) => c.notNull())
    .addColumn('received_at', timestamp, (c) => c.notNull())
    .addForeignKeyConstraint(
      'positions_user_fk',
      ['organisation_id', 'user_id'],
      'users',
      ['organisation_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute()
  // The last position of each worker (ORDER BY recorded_at DESC LIMIT 1 per user) and a day's trail.
  await db.schema
    .createIndex('positions_user_recorded_idx')
    .on('positions')
    .columns(['organisation_id', 'user_id', 'recorded_at desc'])
    .execute()
  // Pruning after the retention period scans by age alone, across organisations.
  await db.schema.createIndex('positions_recorded_idx').on('positions').column('recorded_at').execute()

  await db.schema
    .createTable('job_etas')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('job_id', 'text', (c) => c.notNull())
    /** The job's scheduled start when the eta was announced: a new schedule starts a new baseline. */
    .addColumn('scheduled_start', timestamp)
    /** The predicted arrival last announced (JOB_ETA_CHANGED), or the schedule it was measured from. */
    .addColumn('sent_eta', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_etas_pkey', ['organisation_id', 'job_id'])
    .execute()

  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .execute()
}
