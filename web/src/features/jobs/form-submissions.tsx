// A job's form submissions (checklists, readings, signatures sent by the technician app or an
// integration): a paged list, and each one's answers in a side sheet.
import { useState } from 'react'
import { formatDateTime } from '../../lib/time'
import { Button } from '../../ui/button'
import { type Column, DataTable } from '../../ui/data-table'
import { Sheet } from '../../ui/dialog'
import { Pager } from '../../ui/pager'
import { EmptyState } from '../../ui/states'
import { useWorkers } from '../shifts/queries'
import { type FormSubmission, useFormSubmissions } from './queries'

const label = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ')

function Answer({ value }: { value: unknown }) {
  if (value === null) return <span className="muted">—</span>
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>
  if (typeof value === 'string' || typeof value === 'number') return <>{String(value)}</>
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return <>{value.join(', ')}</>
  }
  return <pre className="code-block">{JSON.stringify(value, null, 2)}</pre>
}

export function FormSubmissions({ jobId, timeZone }: { jobId: string; timeZone: string }) {
  const [page, setPage] = useState(1)
  const submissions = useFormSubmissions(jobId, page)
  const workers = useWorkers()
  const [open, setOpen] = useState<FormSubmission | null>(null)
  const who = (id: string | null) =>
    id ? (
      (workers.data?.users.find((u) => u.id === id)?.name ?? 'A team member')
    ) : (
      <span className="muted">—</span>
    )

  const columns: Column<FormSubmission>[] = [
    { header: 'Form', cell: (s) => <strong>{s.form}</strong> },
    { header: 'Submitted', cell: (s) => formatDateTime(s.createdAt, timeZone) },
    { header: 'By', cell: (s) => who(s.submittedByUserId) },
    { header: 'Answers', cell: (s) => `${Object.keys(s.answers).length}` },
    {
      header: 'Actions',
      hiddenHeader: true,
      className: 'cell-actions',
      cell: (s) => (
        <Button size="sm" onClick={() => setOpen(s)} aria-label={`View answers of ${s.form}`}>
          View answers
        </Button>
      ),
    },
  ]

  return (
    <section className="section" aria-labelledby="submissions-title">
      <div className="section-header">
        <h2 id="submissions-title">Form submissions</h2>
      </div>
      <div>
        <DataTable
          label="Form submissions"
          columns={columns}
          rows={submissions.data?.formSubmissions}
          rowKey={(s) => s.id}
          isLoading={submissions.isPending}
          error={submissions.error}
          onRetry={() => submissions.refetch()}
          onRowClick={setOpen}
          selectedKey={open?.id ?? null}
          loadingRows={2}
          empty={
            <EmptyState
              icon="✎"
              title="No form submissions"
              description="Checklists and readings the technician sends for this job appear here."
            />
          }
        />
        <Pager pagination={submissions.data?.pagination} onPage={setPage} noun="submissions" />
      </div>
      {open && (
        <Sheet
          title={open.form}
          description={`Submitted ${formatDateTime(open.createdAt, timeZone)}`}
          onClose={() => setOpen(null)}
        >
          {Object.keys(open.answers).length === 0 ? (
            <p className="muted">No answers.</p>
          ) : (
            <dl className="details">
              {Object.entries(open.answers).map(([key, value]) => (
                <div key={key} style={{ display: 'contents' }}>
                  <dt>{label(key)}</dt>
                  <dd>
                    <Answer value={value} />
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </Sheet>
      )}
    </section>
  )
}
