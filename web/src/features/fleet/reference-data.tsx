// Tags (skills and equipment that vehicles have and jobs need) and capacity dimensions (what vans
// carry and jobs use, named by the organisation) — small lists managed in place on the Fleet page.
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Field, FormError, serverErrors } from '../../ui/form'
import { FormDialog } from '../../ui/form-dialog'
import { TextField } from '../../ui/form-fields'
import { Pager } from '../../ui/pager'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { useFormState } from '../../ui/use-form-state'
import {
  type CapacityDimension,
  type Tag,
  useCapacityDimensions,
  useDeleteCapacityDimension,
  useDeleteTag,
  useSaveCapacityDimension,
  useSaveTag,
  useTags,
} from './queries'
import { ConfirmDeletion } from './record-actions'

const SMALL_PAGE = 10

export function TagsCard() {
  const [page, setPage] = useState(1)
  const tags = useTags(page, SMALL_PAGE)
  const save = useSaveTag()
  const remove = useDeleteTag()
  const toast = useToast()
  const [name, setName] = useState('')
  const [renaming, setRenaming] = useState<Tag | null>(null)
  const [deleting, setDeleting] = useState<Tag | null>(null)
  const errors = serverErrors(renaming ? null : save.error, ['name'])

  return (
    <section className="card" id="tags" aria-labelledby="tags-title">
      <div className="card-body">
        <div className="section-header">
          <h2 id="tags-title">Tags</h2>
        </div>
        <p className="muted">Skills and equipment: a job with a tag goes to a vehicle with it.</p>
        {tags.error && !tags.data ? (
          <ErrorState error={tags.error} onRetry={() => tags.refetch()} />
        ) : tags.isPending ? (
          <LoadingState />
        ) : tags.data.tags.length === 0 ? (
          <EmptyState icon="#" title="No tags yet" />
        ) : (
          <ul className="reference-list" aria-label="Tags">
            {tags.data.tags.map((tag) => (
              <li key={tag.id}>
                <span>{tag.name}</span>
                <span className="row">
                  <Button size="sm" onClick={() => setRenaming(tag)} aria-label={`Rename tag ${tag.name}`}>
                    Rename
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setDeleting(tag)}
                    aria-label={`Delete tag ${tag.name}`}
                  >
                    Delete
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager pagination={tags.data?.pagination} onPage={setPage} noun="tags" />
        <form
          className="reference-add"
          onSubmit={(event) => {
            event.preventDefault()
            save.mutate(
              { name: name.trim() },
              {
                onSuccess: ({ tag }) => {
                  setName('')
                  toast.success(`Tag ${tag.name} added`)
                },
              },
            )
          }}
          noValidate
        >
          <Field label="New tag" error={errors.fields.name}>
            {(control) => (
              <input
                {...control}
                className="input"
                autoComplete="off"
                placeholder="e.g. Gas Safe"
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          <Button type="submit" pending={save.isPending && !renaming}>
            Add tag
          </Button>
        </form>
        <FormError message={errors.form} />
      </div>
      {renaming && (
        <RenameDialog
          title={`Rename tag ${renaming.name}`}
          fields={[{ name: 'name', label: 'Name', value: renaming.name }]}
          pending={save.isPending}
          error={save.error}
          onClose={() => {
            save.reset()
            setRenaming(null)
          }}
          onSave={({ name: newName = '' }) =>
            save.mutate({ id: renaming.id, name: newName.trim() }, { onSuccess: () => setRenaming(null) })
          }
        />
      )}
      {deleting && (
        <ConfirmDeletion
          noun="tag"
          record={deleting}
          deletion={remove}
          deletedMessage={`Tag ${deleting.name} deleted`}
          onDone={() => setDeleting(null)}
        >
          A tag that vehicles or jobs still carry cannot be deleted: take it off them first.
        </ConfirmDeletion>
      )}
    </section>
  )
}

export function CapacityCard() {
  const [page, setPage] = useState(1)
  const dimensions = useCapacityDimensions(page, SMALL_PAGE)
  const save = useSaveCapacityDimension()
  const remove = useDeleteCapacityDimension()
  const toast = useToast()
  const [label, setLabel] = useState('')
  const [key, setKey] = useState('')
  const [editing, setEditing] = useState<CapacityDimension | null>(null)
  const [deleting, setDeleting] = useState<CapacityDimension | null>(null)
  const errors = serverErrors(editing ? null : save.error, ['key', 'label'])

  return (
    <section className="card" id="capacity" aria-labelledby="capacity-title">
      <div className="card-body">
        <div className="section-header">
          <h2 id="capacity-title">Capacity dimensions</h2>
        </div>
        <p className="muted">
          What vans carry and jobs use up, in your own words: shelf space, pipe length, weight…
        </p>
        {dimensions.error && !dimensions.data ? (
          <ErrorState error={dimensions.error} onRetry={() => dimensions.refetch()} />
        ) : dimensions.isPending ? (
          <LoadingState />
        ) : dimensions.data.capacityDimensions.length === 0 ? (
          <EmptyState icon="▤" title="No capacity dimensions yet" />
        ) : (
          <ul className="reference-list" aria-label="Capacity dimensions">
            {dimensions.data.capacityDimensions.map((dimension) => (
              <li key={dimension.id}>
                <span>
                  {dimension.label} <span className="muted mono">{dimension.key}</span>
                </span>
                <span className="row">
                  <Button
                    size="sm"
                    onClick={() => setEditing(dimension)}
                    aria-label={`Edit dimension ${dimension.label}`}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setDeleting(dimension)}
                    aria-label={`Delete dimension ${dimension.label}`}
                  >
                    Delete
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager pagination={dimensions.data?.pagination} onPage={setPage} noun="dimensions" />
        <form
          className="reference-add"
          onSubmit={(event) => {
            event.preventDefault()
            save.mutate(
              { key: key.trim(), label: label.trim() },
              {
                onSuccess: ({ capacityDimension }) => {
                  setKey('')
                  setLabel('')
                  toast.success(`${capacityDimension.label} added`)
                },
              },
            )
          }}
          noValidate
        >
          <Field label="New dimension" error={errors.fields.label}>
            {(control) => (
              <input
                {...control}
                className="input"
                autoComplete="off"
                placeholder="Weight (kg)"
                value={label}
                onChange={(e) => setLabel(e.target.value)}
              />
            )}
          </Field>
          <Field label="Key" error={errors.fields.key}>
            {(control) => (
              <input
                {...control}
                className="input mono"
                autoComplete="off"
                placeholder="weight_kg"
                value={key}
                onChange={(e) => setKey(e.target.value)}
              />
            )}
          </Field>
          <Button type="submit" pending={save.isPending && !editing}>
            Add dimension
          </Button>
        </form>
        <FormError message={errors.form} />
      </div>
      {editing && (
        <RenameDialog
          title={`Edit dimension ${editing.label}`}
          fields={[
            { name: 'label', label: 'Label', value: editing.label },
            { name: 'key', label: 'Key', value: editing.key },
          ]}
          pending={save.isPending}
          error={save.error}
          onClose={() => {
            save.reset()
            setEditing(null)
          }}
          onSave={({ label: newLabel = '', key: newKey = '' }) =>
            save.mutate(
              { id: editing.id, label: newLabel.trim(), key: newKey.trim() },
              { onSuccess: () => setEditing(null) },
            )
          }
        />
      )}
      {deleting && (
        <ConfirmDeletion
          noun="dimension"
          record={{ id: deleting.id, name: deleting.label }}
          deletion={remove}
          onDone={() => setDeleting(null)}
        >
          A dimension that vehicles or jobs still use cannot be deleted: remove it from them first.
        </ConfirmDeletion>
      )}
    </section>
  )
}

function RenameDialog({
  title,
  fields,
  pending,
  error,
  onClose,
  onSave,
}: {
  title: string
  fields: { name: string; label: string; value: string }[]
  pending: boolean
  error: unknown
  onClose: () => void
  onSave: (values: Record<string, string>) => void
}) {
  const form = useFormState<Record<string, string>>(
    () => Object.fromEntries(fields.map((f) => [f.name, f.value])),
    { fields: fields.map((f) => f.name), submission: { error, isPending: pending } },
  )
  return (
    <FormDialog
      title={title}
      onClose={onClose}
      onSubmit={() => onSave(form.values)}
      submitLabel="Save"
      submitting={form.submitting}
      formError={form.formError}
    >
      {fields.map((field) => (
        <TextField key={field.name} form={form} name={field.name} label={field.label} autoComplete="off" />
      ))}
    </FormDialog>
  )
}
