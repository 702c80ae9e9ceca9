// A job's proof of completion on its page: what completing it needs (its own requirements and its
// form templates'), what it has so far, and the worker's notes once completed; a dispatcher sets the
// job's own requirements while it is open.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { API_BASE, api, unwrap } from '../../api/client'
import { errorMessage } from '../../api/errors'
import type { Schema } from '../../api/types'
import { formatDateTime } from '../../lib/time'
import { Button } from '../../ui/button'
import { FormDialog } from '../../ui/form-dialog'
import { NOTHING_REQUIRED, type Requires, RequiresFields, requiresWords } from './requires-fields'

type Completion = Schema<'Completion'>

const completionKey = (jobId: string) => ['jobs', 'completion', jobId] as const

export function useJobCompletion(jobId: string) {
  return useQuery({
    queryKey: completionKey(jobId),
    queryFn: async () =>
      (await unwrap(api.GET('/jobs/{id}/completion', { params: { path: { id: jobId } } }))).completion,
  })
}

function useSetRequirements(jobId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (requires: Requires) =>
      (
        await unwrap(
          api.PUT('/jobs/{id}/requirements', { params: { path: { id: jobId } }, body: { requires } }),
        )
      ).completion,
    onSuccess: (completion) => queryClient.setQueryData(completionKey(jobId), completion),
  })
}

function ownRequires(completion: Completion): Requires {
  return completion.sources.find((source) => source.kind === 'JOB')?.requires ?? NOTHING_REQUIRED
}

export function JobCompletion({ jobId, open, timeZone }: { jobId: string; open: boolean; timeZone: string }) {
  const completion = useJobCompletion(jobId)
  const [editing, setEditing] = useState(false)
  const data = completion.data
  if (!data) return null
  const words = requiresWords(data.requires)
  return (
    <section className="section" aria-labelledby="completion-title">
      <div className="section-header">
        <h2 id="completion-title">Proof of completion</h2>
        <div className="section-actions">
          {open && (
            <Button size="sm" onClick={() => setEditing(true)}>
              Set what completing needs
            </Button>
          )}
          {/* A download, not a tab: the PDF comes with a sandboxing CSP, which browsers' viewers refuse. */}
          <a className="btn btn-sm" href={`${API_BASE}/jobs/${encodeURIComponent(jobId)}/proof`} download>
            {open ? 'Proof so far (PDF)' : 'Download proof (PDF)'}
          </a>
        </div>
      </div>
      <div className="card">
        <div className="card-body">
          <dl className="details">
            <dt>Completing needs</dt>
            <dd>
              {words ?? <span className="muted">Nothing beyond its forms</span>}
              {data.sources.length > 0 && (
                <div className="muted">
                  {data.sources
                    .map((source) =>
                      source.kind === 'JOB'
                        ? `This job: ${requiresWords(source.requires) ?? 'nothing'}`
                        : `Form “${source.formTemplate?.name}”: ${requiresWords(source.requires) ?? 'nothing'}`,
                    )
                    .join(' · ')}
                </div>
              )}
            </dd>
            <dt>Has</dt>
            <dd>
              {data.has.signatures > 0 ? 'Signed' : 'No signature'} ·{' '}
              {`${data.has.photos} photo${data.has.photos === 1 ? '' : 's'}`}
            </dd>
            {open && (
              <>
                <dt>Still needed</dt>
                <dd>
                  {data.missing.length === 0 ? (
                    <span className="muted">Nothing: it can be completed</span>
                  ) : (
                    data.missing.map((m) => m.message).join('; ')
                  )}
                </dd>
              </>
            )}
            <dt>Notes</dt>
            <dd>
              {data.has.notes ? (
                <>
                  <p className="pre-wrap">{data.has.notes}</p>
                  {data.notesWrittenAt && (
                    <div className="muted">Written {formatDateTime(data.notesWrittenAt, timeZone)}</div>
                  )}
                </>
              ) : (
                <span className="muted">None</span>
              )}
            </dd>
          </dl>
        </div>
      </div>
      {editing && (
        <RequirementsDialog jobId={jobId} initial={ownRequires(data)} onClose={() => setEditing(false)} />
      )}
    </section>
  )
}

function RequirementsDialog({
  jobId,
  initial,
  onClose,
}: {
  jobId: string
  initial: Requires
  onClose: () => void
}) {
  const [requires, setRequires] = useState(initial)
  const save = useSetRequirements(jobId)
  return (
    <FormDialog
      title="What completing this job needs"
      description="The technician's phone shows these as a checklist before Complete, and the job cannot be completed without them. Its forms may require more."
      onClose={onClose}
      onSubmit={() => save.mutate(requires, { onSuccess: onClose })}
      submitLabel="Save"
      submitting={save.isPending}
      formError={save.error ? errorMessage(save.error) : null}
    >
      <RequiresFields value={requires} onChange={setRequires} />
    </FormDialog>
  )
}
