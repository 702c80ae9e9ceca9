// Create or edit a form template: name, description, which jobs need it (all, or those with a tag),
// its fields, and (new ones) whether it is active at once. The API's errors show next to their field,
// field-row errors on their row.
import { ApiError } from '../../api/errors'
import { FormError } from '../../ui/form'
import { FormDialog } from '../../ui/form-dialog'
import { SelectField, TextAreaField, TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
import { NOTHING_REQUIRED, RequiresFields } from '../completion/requires-fields'
import { FieldsEditor, fieldsOf, newRow, rowOf } from './fields-editor'
import {
  type FormTemplate,
  type TemplateBody,
  useCreateFormTemplate,
  useTags,
  useUpdateFormTemplate,
} from './queries'

const KNOWN = ['name', 'description', 'appliesTo', 'tagId', 'isActive'] as const

/** The first error of /body/requires/…, for the requirements' fieldset. */
function requiresError(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined
  const detail = error.details.find((d) => d.path.startsWith('/body/requires'))
  return detail ? `${detail.path.replace('/body/requires/', '')} ${detail.message}` : undefined
}

/** `/body/fields/2/key` → { 2: { key: message } }. */
function rowErrors(error: unknown): { rows: Record<number, Record<string, string>>; shown: number } {
  const rows: Record<number, Record<string, string>> = {}
  let shown = 0
  if (!(error instanceof ApiError)) return { rows, shown }
  for (const { path, message } of error.details) {
    const match = /^\/body\/fields\/(\d+)\/([^/]+)/.exec(path)
    if (!match) continue
    const index = Number(match[1])
    const row = rows[index] ?? {}
    rows[index] = row
    const prop = match[2] ?? ''
    if (!(prop in row)) row[prop] = message
    shown++
  }
  return { rows, shown }
}

export function TemplateDialog({ template, onClose }: { template?: FormTemplate; onClose: () => void }) {
  const create = useCreateFormTemplate()
  const update = useUpdateFormTemplate()
  const tags = useTags()
  const mutation = template ? update : create
  const form = useFormState(
    () => ({
      name: template?.name ?? '',
      description: template?.description ?? '',
      appliesTo: template?.appliesTo ?? ('ALL_JOBS' as FormTemplate['appliesTo']),
      tagId: template?.tagId ?? '',
      isActive: true,
      rows: template ? template.fields.map(rowOf) : [newRow({ required: true })],
      requires: template?.requires ?? NOTHING_REQUIRED,
    }),
    { fields: KNOWN, submission: mutation },
  )
  const { name, description, appliesTo, tagId, isActive, rows, requires } = form.values

  const fieldRows = rowErrors(mutation.error)
  const shownByField = KNOWN.filter((field) => form.error(field)).length
  // A message for the whole form unless every detail is shown beside its control.
  const formMessage =
    mutation.error instanceof ApiError &&
    shownByField + fieldRows.shown === mutation.error.details.length &&
    mutation.error.details.length > 0
      ? null
      : form.formError

  const submit = () => {
    const body: TemplateBody = {
      name,
      description,
      appliesTo,
      tagId: appliesTo === 'TAGGED_JOBS' ? tagId || null : null,
      fields: fieldsOf(rows),
      requires,
    }
    if (template) update.mutate({ id: template.id, body }, { onSuccess: onClose })
    else create.mutate({ ...body, isActive }, { onSuccess: onClose })
  }

  return (
    <FormDialog
      wide
      title={template ? `Edit “${template.name}”` : 'Create form template'}
      description="A form workers fill in on a job in My day. A job that needs an active form cannot be completed without it."
      onClose={onClose}
      onSubmit={submit}
      submitLabel={template ? 'Save changes' : 'Create form template'}
      submitting={form.submitting}
      // Shown inside the stack, with the fields' spacing.
      formError={null}
    >
      <div className="stack">
        <FormError message={formMessage} />
        <TextField form={form} name="name" label="Name" />
        <TextAreaField
          form={form}
          name="description"
          label="Description"
          optional
          hint="Shown to the worker above the form"
          rows={2}
        />
        <SelectField form={form} name="appliesTo" label="Which jobs need it">
          <option value="ALL_JOBS">Every job</option>
          <option value="TAGGED_JOBS">Jobs with a tag</option>
        </SelectField>
        {appliesTo === 'TAGGED_JOBS' && (
          <SelectField form={form} name="tagId" label="Tag">
            <option value="">Choose a tag…</option>
            {(tags.data?.tags ?? []).map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.name}
              </option>
            ))}
          </SelectField>
        )}
        <h3>Fields</h3>
        <FieldsEditor rows={rows} onChange={(next) => form.setField('rows', next)} errors={fieldRows.rows} />
        <RequiresFields
          legend="Completing a job that needs this form also needs"
          value={requires}
          onChange={(next) => form.setField('requires', next)}
          error={requiresError(mutation.error)}
        />
        {!template && (
          <label className="choice">
            <input type="checkbox" {...form.checkbox('isActive')} />
            <span>Active now (jobs need it from now on)</span>
          </label>
        )}
      </div>
    </FormDialog>
  )
}
