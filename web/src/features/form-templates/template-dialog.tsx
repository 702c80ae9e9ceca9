// Create or edit a form template: name, description, which jobs need it (all, or those with a tag),
// its fields, and (new ones) whether it is active at once. The API's errors show next to their field,
// field-row errors on their row.
import { useState } from 'react'
import { ApiError } from '../../api/errors'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field, FormError, serverErrors } from '../../ui/form'
import { type FieldRow, FieldsEditor, fieldsOf, newRow, rowOf } from './fields-editor'
import {
  type FormTemplate,
  type TemplateBody,
  useCreateFormTemplate,
  useTags,
  useUpdateFormTemplate,
} from './queries'

const KNOWN = ['name', 'description', 'appliesTo', 'tagId', 'isActive'] as const

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
  const [name, setName] = useState(template?.name ?? '')
  const [description, setDescription] = useState(template?.description ?? '')
  const [appliesTo, setAppliesTo] = useState<FormTemplate['appliesTo']>(template?.appliesTo ?? 'ALL_JOBS')
  const [tagId, setTagId] = useState(template?.tagId ?? '')
  const [isActive, setIsActive] = useState(true)
  const [rows, setRows] = useState<FieldRow[]>(() =>
    template ? template.fields.map(rowOf) : [newRow({ required: true })],
  )

  const errors = serverErrors(mutation.error, KNOWN)
  const fieldRows = rowErrors(mutation.error)
  // A message for the whole form unless every detail is shown beside its control.
  const formMessage =
    mutation.error instanceof ApiError &&
    Object.keys(errors.fields).length + fieldRows.shown === mutation.error.details.length &&
    mutation.error.details.length > 0
      ? null
      : errors.form

  const submit = () => {
    const body: TemplateBody = {
      name,
      description,
      appliesTo,
      tagId: appliesTo === 'TAGGED_JOBS' ? tagId || null : null,
      fields: fieldsOf(rows),
    }
    if (template) update.mutate({ id: template.id, body }, { onSuccess: onClose })
    else create.mutate({ ...body, isActive }, { onSuccess: onClose })
  }

  return (
    <Dialog
      wide
      title={template ? `Edit “${template.name}”` : 'Create form template'}
      description="A form workers fill in on a job in My day. A job that needs an active form cannot be completed without it."
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={mutation.isPending}>
            {template ? 'Save changes' : 'Create form template'}
          </Button>
        </>
      }
    >
      <div className="stack">
        <FormError message={formMessage} />
        <Field label="Name" error={errors.fields.name}>
          {(control) => (
            <input {...control} className="input" value={name} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <Field
          label="Description"
          optional
          error={errors.fields.description}
          hint="Shown to the worker above the form"
        >
          {(control) => (
            <textarea
              {...control}
              className="textarea"
              rows={2}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </Field>
        <Field label="Which jobs need it" error={errors.fields.appliesTo}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={appliesTo}
              onChange={(e) => setAppliesTo(e.target.value as FormTemplate['appliesTo'])}
            >
              <option value="ALL_JOBS">Every job</option>
              <option value="TAGGED_JOBS">Jobs with a tag</option>
            </select>
          )}
        </Field>
        {appliesTo === 'TAGGED_JOBS' && (
          <Field label="Tag" error={errors.fields.tagId}>
            {(control) => (
              <select
                {...control}
                className="select"
                value={tagId}
                onChange={(e) => setTagId(e.target.value)}
              >
                <option value="">Choose a tag…</option>
                {(tags.data?.tags ?? []).map((tag) => (
                  <option key={tag.id} value={tag.id}>
                    {tag.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <h3>Fields</h3>
        <FieldsEditor rows={rows} onChange={setRows} errors={fieldRows.rows} />
        {!template && (
          <label className="choice">
            <input type="checkbox" checked={isActive} onChange={(e) => setIsActive(e.target.checked)} />
            <span>Active now (jobs need it from now on)</span>
          </label>
        )}
      </div>
    </Dialog>
  )
}
