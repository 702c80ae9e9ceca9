// Form templates (the technician's forms): what a form asks (fields as JSON), which jobs need it (all,
// or those with a tag), and the template a submission answered, if any (template-less submissions
// through the admin API keep working). Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`
  const bool = pg ? sql`boolean` : sql`integer`
  await db.schema
    .createTable('form_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    /** ALL_JOBS or TAGGED_JOBS (then tag_id). */
    .addColumn('applies_to', 'text', (c) => c.notNull())
    .addColumn('tag_id', 'text')
    /** The fields, as JSON text. */
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('is_active', bool, (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('form_templates_organisation_id_id_key', ['organisation_id', 'id'])
    .addForeignKeyConstraint('form_templates_tag_fk', ['organisation_id', 'tag_id'], 'tags', [
      'organisation_id',
      'id',
    ])
    .execute()
  await db.schema
    .createIndex('form_templates_organisation_idx')
    .on('form_templates')
    .columns(['organisation_id', 'created_at desc', 'id desc'])
    .execute()
  await db.schema.alterTable('form_submissions').addColumn('template_id', 'text').execute()
  await db.schema
    .createIndex('form_submissions_job_template_idx')
    .on('form_submissions')
    .columns(['organisation_id', 'job_id', 'template_id'])
    .execute()
}
