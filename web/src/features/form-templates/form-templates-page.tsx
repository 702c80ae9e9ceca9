// Settings › Form templates (ADMIN): the forms workers fill in on jobs in My day — which jobs need
// each (every job, or jobs with a tag), its fields; create, edit, activate/deactivate, delete.
import { useState } from 'react'
import { errorMessage } from '../../api/errors'
import { useListParams } from '../../lib/search-params'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import type { Column } from '../../ui/data-table'
import { DateTime } from '../../ui/date-time'
import { DownloadListCsv } from '../../ui/download-list-csv'
import { ListPage } from '../../ui/list-page'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { TYPE_LABELS } from './fields-editor'
import {
  allFormTemplates,
  FORM_TEMPLATE_CSV,
  type FormTemplate,
  useDeleteFormTemplate,
  useFormTemplates,
  useTags,
  useUpdateFormTemplate,
} from './queries'
import { TemplateDialog } from './template-dialog'
import './form-templates.css'

export function FormTemplatesPage() {
  const params = useListParams()
  const templates = useFormTemplates(params.page)
  const tags = useTags()
  const update = useUpdateFormTemplate()
  const remove = useDeleteFormTemplate()
  const toast = useToast()
  const [editing, setEditing] = useState<FormTemplate | 'new' | null>(null)
  const [deleting, setDeleting] = useState<FormTemplate | null>(null)
  const tagName = (id: string | null) => tags.data?.tags.find((tag) => tag.id === id)?.name ?? 'a tag'

  const setActive = (template: FormTemplate, isActive: boolean) =>
    update.mutate(
      { id: template.id, body: { isActive } },
      {
        onSuccess: () => toast.success(`“${template.name}” ${isActive ? 'activated' : 'deactivated'}`),
        onError: (error) => toast.error(errorMessage(error)),
      },
    )

  const columns: Column<FormTemplate>[] = [
    {
      header: 'Name',
      cell: (t) => (
        <div>
          <strong>{t.name}</strong>
          {t.description && <div className="muted">{t.description}</div>}
        </div>
      ),
    },
    {
      header: 'Needed on',
      cell: (t) => (t.appliesTo === 'ALL_JOBS' ? 'Every job' : `Jobs tagged “${tagName(t.tagId)}”`),
    },
    {
      header: 'Fields',
      cell: (t) => (
        <span title={t.fields.map((f) => `${f.label} (${TYPE_LABELS[f.type]})`).join(', ')}>
          {t.fields.length} {t.fields.length === 1 ? 'field' : 'fields'} ·{' '}
          {t.fields.filter((f) => f.required).length} required
        </span>
      ),
    },
    {
      header: 'Status',
      cell: (t) => (t.isActive ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>),
    },
    { header: 'Updated', cell: (t) => <DateTime value={t.updatedAt} dateOnly /> },
    {
      header: 'Actions',
      className: 'cell-actions',
      cell: (t) => (
        <div className="row">
          <Button size="sm" aria-label={`Edit ${t.name}`} onClick={() => setEditing(t)}>
            Edit
          </Button>
          <Button
            size="sm"
            aria-label={`${t.isActive ? 'Deactivate' : 'Activate'} ${t.name}`}
            onClick={() => setActive(t, !t.isActive)}
          >
            {t.isActive ? 'Deactivate' : 'Activate'}
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Delete ${t.name}`} onClick={() => setDeleting(t)}>
            Delete
          </Button>
        </div>
      ),
    },
  ]

  return (
    <ListPage
      title="Form templates"
      description="Checklists and reports your workers fill in on a job in My day. A job that needs an active form cannot be completed until it is filled in."
      actions={
        <>
          <DownloadListCsv
            filename="form-templates.csv"
            columns={FORM_TEMPLATE_CSV}
            load={allFormTemplates}
          />
          <Button variant="primary" onClick={() => setEditing('new')}>
            Create form template
          </Button>
        </>
      }
      table={{
        label: 'Form templates',
        columns,
        rows: templates.data?.formTemplates,
        rowKey: (t) => t.id,
        query: templates,
        pagination: templates.data?.pagination,
        onPage: (page) => params.set({ page }),
        noun: 'templates',
        empty: (
          <EmptyState
            icon="☑"
            title="No form templates yet"
            description="Create one for a safety check, a customer sign-off or a parts report."
            action={
              <Button variant="primary" onClick={() => setEditing('new')}>
                Create form template
              </Button>
            }
          />
        ),
      }}
    >
      {editing && (
        <TemplateDialog template={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete form template"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                toast.success(`“${deleting.name}” deleted`)
                setDeleting(null)
              },
            })
          }
          onClose={() => {
            remove.reset()
            setDeleting(null)
          }}
        >
          <p>
            Jobs no longer need this form. Answers already submitted are kept with their jobs. To stop using
            it for now and keep it, deactivate it instead.
          </p>
        </ConfirmDialog>
      )}
    </ListPage>
  )
}
