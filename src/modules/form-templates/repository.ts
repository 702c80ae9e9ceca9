// SQL for form templates. Every query is scoped by organisation.
import type { Insertable, Updateable } from 'kysely'
import { sqlBool } from '../../db/database.js'
import type { Executor, FormTemplateRow, FormTemplatesTable } from '../../db/types.js'

export async function findFormTemplateRow(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<FormTemplateRow | undefined> {
  return db
    .selectFrom('form_templates')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** One page of the templates, newest first, and how many match in all. */
export async function listFormTemplateRows(
  db: Executor,
  organisationId: string,
  filter: { isActive?: boolean },
  page: { limit: number; offset: number },
): Promise<{ rows: FormTemplateRow[]; total: number }> {
  const filtered = db
    .selectFrom('form_templates')
    .where('organisation_id', '=', organisationId)
    .$if(filter.isActive !== undefined, (q) => q.where('is_active', '=', sqlBool(filter.isActive as boolean)))
  const [rows, total] = await Promise.all([
    filtered
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(total.total) }
}

export async function insertFormTemplate(db: Executor, row: Insertable<FormTemplatesTable>): Promise<void> {
  await db.insertInto('form_templates').values(row).execute()
}

export async function updateFormTemplate(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Updateable<FormTemplatesTable>,
): Promise<void> {
  await db
    .updateTable('form_templates')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}

/** Whether a template was there to delete. */
export async function deleteFormTemplate(db: Executor, organisationId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('form_templates')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** The active templates a job needs: every ALL_JOBS one, and the TAGGED_JOBS ones of its tags. */
export async function findTemplatesNeededBy(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<FormTemplateRow[]> {
  return db
    .selectFrom('form_templates')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('is_active', '=', sqlBool(true))
    .where((eb) =>
      eb.or([
        eb('applies_to', '=', 'ALL_JOBS'),
        eb(
          'tag_id',
          'in',
          eb
            .selectFrom('job_tags')
            .select('tag_id')
            .where('job_tags.organisation_id', '=', organisationId)
            .where('job_tags.job_id', '=', jobId),
        ),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

/**
 * The job's submissions that answered a template, oldest first. A read of the forms module's table
 * (this module's rule, FORM_REQUIRED, depends on it); only forms/ writes it.
 */
export async function findTemplateSubmissions(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<{ id: string; template_id: string | null; created_at: string }[]> {
  return db
    .selectFrom('form_submissions')
    .select(['id', 'template_id', 'created_at'])
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .where('template_id', 'is not', null)
    .orderBy('created_at')
    .execute()
}
