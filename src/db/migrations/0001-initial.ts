// The first schema. Frozen in time: never import application code here, and never edit this file
// once it has shipped; add a new migration instead. Where the dialects differ, branch explicitly.
import { type CreateTableBuilder, type Kysely, sql } from 'kysely'

export type MigrationDialect = 'sqlite' | 'postgres'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  // Datetimes: timestamptz on PostgreSQL; ISO 8601 UTC text (which sorts correctly) on SQLite.
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`
  const bool = pg ? sql`boolean` : sql`integer`
  // Coordinates are kept exactly as decimal text, never as binary floating point.
  const decimal = pg ? sql`numeric` : sql`text`
  const double = pg ? sql`double precision` : sql`real`

  // Every tenant-owned table: text id, organisation id, and a unique (organisation_id, id) so that
  // references between tables can be composite foreign keys that can never cross organisations.
  const tenantTable = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
  const withTimestamps = (t: CreateTableBuilder<any, any>) =>
    t
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
  const tenantKey = (name: string) => `${name}_organisation_id_id_key`

  await db.schema
    .createTable('organisations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute()

  await withTimestamps(
    tenantTable('users')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('is_active', bool, (c) => c.notNull()),
  )
    .addUniqueConstraint(tenantKey('users'), ['organisation_id', 'id'])
    .addUniqueConstraint('users_organisation_id_email_key', ['organisation_id', 'email'])
    .execute()

  await withTimestamps(
    tenantTable('locations')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('latitude', decimal, (c) => c.notNull())
      .addColumn('longitude', decimal, (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('is_primary', bool, (c) => c.notNull())
      .addColumn('is_active', bool, (c) => c.notNull()),
  )
    .addUniqueConstraint(tenantKey('locations'), ['organisation_id', 'id'])
    .execute()

  await withTimestamps(
    tenantTable('capacity_dimensions')
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull()),
  )
    .addUniqueConstraint(tenantKey('capacity_dimensions'), ['organisation_id', 'id'])
    .addUniqueConstraint('capacity_dimensions_organisation_id_key_key', ['organisation_id', 'key'])
    .execute()

  await withTimestamps(tenantTable('tags').addColumn('name', 'text', (c) => c.notNull()))
    .addUniqueConstraint(tenantKey('tags'), ['organisation_id', 'id'])
    .addUniqueConstraint('tags_organisation_id_name_key', ['organisation_id', 'name'])
    .execute()

  await withTimestamps(
    tenantTable('vehicles')
      .addColumn('location_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('fixed_cost', double, (c) => c.notNull())
      .addColumn('cost_per_km', double, (c) => c.notNull())
      .addColumn('cost_per_hour', double, (c) => c.notNull())
      .addColumn('speed_factor', double, (c) => c.notNull())
      .addColumn('start_latitude', decimal)
      .addColumn('start_longitude', decimal)
      .addColumn('end_policy', 'text', (c) => c.notNull())
      .addColumn('is_active', bool, (c) => c.notNull()),
  )
    .addUniqueConstraint(tenantKey('vehicles'), ['organisation_id', 'id'])
    .addForeignKeyConstraint('vehicles_location_fk', ['organisation_id', 'location_id'], 'locations', [
      'organisation_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('vehicle_tags')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('vehicle_id', 'text', (c) => c.notNull())
    .addColumn('tag_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('vehicle_tags_pkey', ['vehicle_id', 'tag_id'])
    .addForeignKeyConstraint(
      'vehicle_tags_vehicle_fk',
      ['organisation_id', 'vehicle_id'],
      'vehicles',
      ['organisation_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint('vehicle_tags_tag_fk', ['organisation_id', 'tag_id'], 'tags', [
      'organisation_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('vehicle_capacities')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('vehicle_id', 'text', (c) => c.notNull())
    .addColumn('capacity_dimension_id', 'text', (c) => c.notNull())
    .addColumn('max_value', double, (c) => c.notNull())
    .addPrimaryKeyConstraint('vehicle_capacities_pkey', ['vehicle_id', 'capacity_dimension_id'])
    .addForeignKeyConstraint(
      'vehicle_capacities_vehicle_fk',
      ['organisation_id', 'vehicle_id'],
      'vehicles',
      ['organisation_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'vehicle_capacities_dimension_fk',
      ['organisation_id', 'capacity_dimension_id'],
      'capacity_dimensions',
      ['organisation_id', 'id'],
    )
    .execute()

  await withTimestamps(
    tenantTable('shifts')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('location_id', 'text', (c) => c.notNull())
      .addColumn('vehicle_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('start_time', 'text', (c) => c.notNull())
      .addColumn('end_time', 'text', (c) => c.notNull())
      .addColumn('is_generated', bool, (c) => c.notNull()),
  )
    .addUniqueConstraint(tenantKey('shifts'), ['organisation_id', 'id'])
    .addForeignKeyConstraint('shifts_user_fk', ['organisation_id', 'user_id'], 'users', [
      'organisation_id',
      'id',
    ])
    .addForeignKeyConstraint('shifts_location_fk', ['organisation_id', 'location_id'], 'locations', [
      'organisation_id',
      'id',
    ])
    .addForeignKeyConstraint('shifts_vehicle_fk', ['organisation_id', 'vehicle_id'], 'vehicles', [
      'organisation_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('shift_breaks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('shift_id', 'text', (c) => c.notNull())
    .addColumn('start_time', 'text', (c) => c.notNull())
    .addColumn('end_time', 'text', (c) => c.notNull())
    .addColumn('is_paid', bool, (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addForeignKeyConstraint(
      'shift_breaks_shift_fk',
      ['organisation_id', 'shift_id'],
      'shifts',
      ['organisation_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute()

  await withTimestamps(
    tenantTable('customers')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('latitude', decimal, (c) => c.notNull())
      .addColumn('longitude', decimal, (c) => c.notNull())
      .addColumn('service_duration', 'integer', (c) => c.notNull())
      .addColumn('priority', 'text', (c) => c.notNull())
      .addColumn('time_window_type', 'text', (c) => c.notNull())
      .addColumn('operational_start', 'text', (c) => c.notNull())
      .addColumn('operational_end', 'text', (c) => c.notNull()),
  )
    .addUniqueConstraint(tenantKey('customers'), ['organisation_id', 'id'])
    .execute()

  await withTimestamps(
    tenantTable('jobs')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('priority', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text')
      .addColumn('location_id', 'text')
      .addColumn('job_latitude', decimal)
      .addColumn('job_longitude', decimal)
      .addColumn('service_duration', 'integer', (c) => c.notNull())
      .addColumn('time_window_type', 'text', (c) => c.notNull())
      .addColumn('earliest_start', timestamp)
      .addColumn('latest_end', timestamp)
      .addColumn('scheduled_start', timestamp)
      .addColumn('scheduled_end', timestamp)
      .addColumn('assigned_user_id', 'text')
      .addColumn('shift_id', 'text')
      .addColumn('started_at', timestamp)
      .addColumn('completed_at', timestamp)
      .addColumn('actual_duration', 'integer'),
  )
    .addColumn('deleted_at', timestamp)
    .addUniqueConstraint(tenantKey('jobs'), ['organisation_id', 'id'])
    .addForeignKeyConstraint('jobs_customer_fk', ['organisation_id', 'customer_id'], 'customers', [
      'organisation_id',
      'id',
    ])
    .addForeignKeyConstraint('jobs_location_fk', ['organisation_id', 'location_id'], 'locations', [
      'organisation_id',
      'id',
    ])
    .addForeignKeyConstraint('jobs_assigned_user_fk', ['organisation_id', 'assigned_user_id'], 'users', [
      'organisation_id',
      'id',
    ])
    .addForeignKeyConstraint('jobs_shift_fk', ['organisation_id', 'shift_id'], 'shifts', [
      'organisation_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('job_tags')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('tag_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_tags_pkey', ['job_id', 'tag_id'])
    .addForeignKeyConstraint(
      'job_tags_job_fk',
      ['organisation_id', 'job_id'],
      'jobs',
      ['organisation_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint('job_tags_tag_fk', ['organisation_id', 'tag_id'], 'tags', [
      'organisation_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('job_demands')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('capacity_dimension_id', 'text', (c) => c.notNull())
    .addColumn('required_value', double, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_demands_pkey', ['job_id', 'capacity_dimension_id'])
    .addForeignKeyConstraint(
      'job_demands_job_fk',
      ['organisation_id', 'job_id'],
      'jobs',
      ['organisation_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'job_demands_dimension_fk',
      ['organisation_id', 'capacity_dimension_id'],
      'capacity_dimensions',
      ['organisation_id', 'id'],
    )
    .execute()

  await tenantTable('api_keys')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('rate_limit_per_minute', 'integer', (c) => c.notNull())
    .addColumn('expires_at', timestamp)
    .addColumn('revoked_at', timestamp)
    .addColumn('last_used_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute()

  // Indexes: every list filter plus the list order (created_at DESC, id DESC), each leading with the
  // organisation id. Job indexes cover live rows only: soft-deleted jobs are never listed.
  const index = (name: string, table: string, columns: string[], liveOnly = false) => {
    let builder = db.schema
      .createIndex(name)
      .on(table)
      .columns(['organisation_id', ...columns])
    if (liveOnly) builder = builder.where(sql.ref('deleted_at'), 'is', null)
    return builder.execute()
  }
  const order = ['created_at desc', 'id desc']
  await index('users_list_idx', 'users', order)
  await index('locations_list_idx', 'locations', order)
  await index('locations_active_idx', 'locations', ['is_active', ...order])
  await index('vehicles_list_idx', 'vehicles', order)
  await index('vehicles_location_idx', 'vehicles', ['location_id', ...order])
  await index('vehicles_active_idx', 'vehicles', ['is_active', ...order])
  await index('shifts_list_idx', 'shifts', order)
  await index('shifts_location_idx', 'shifts', ['location_id', ...order])
  await index('shifts_user_idx', 'shifts', ['user_id', ...order])
  await index('shifts_day_idx', 'shifts', ['day', ...order])
  await index('shifts_vehicle_idx', 'shifts', ['vehicle_id'])
  await index('shift_breaks_shift_idx', 'shift_breaks', ['shift_id', 'start_time'])
  await index('customers_list_idx', 'customers', order)
  await index('jobs_list_idx', 'jobs', order, true)
  await index('jobs_status_idx', 'jobs', ['status', ...order], true)
  await index('jobs_customer_idx', 'jobs', ['customer_id', ...order], true)
  await index('jobs_location_idx', 'jobs', ['location_id', ...order], true)
  await index('jobs_priority_idx', 'jobs', ['priority', ...order], true)
  await index('jobs_earliest_start_idx', 'jobs', ['earliest_start'], true)
  await index('jobs_latest_end_idx', 'jobs', ['latest_end'], true)
  await index('jobs_assigned_user_idx', 'jobs', ['assigned_user_id'])
  await index('jobs_shift_idx', 'jobs', ['shift_id'])
  await index('vehicle_tags_tag_idx', 'vehicle_tags', ['tag_id'])
  await index('vehicle_capacities_dimension_idx', 'vehicle_capacities', ['capacity_dimension_id'])
  await index('job_tags_tag_idx', 'job_tags', ['tag_id'])
  await index('job_demands_dimension_idx', 'job_demands', ['capacity_dimension_id'])
  await index('api_keys_organisation_idx', 'api_keys', ['created_at desc', 'id desc'])
}
