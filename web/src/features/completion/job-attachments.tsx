// A job's attachments on its dashboard page: photo and signature thumbnails (signer and time), files
// by name, each original one click away; the office attaches a file (a PDF: a certificate, a quote)
// and an ADMIN deletes one, after confirming. Thumbnails and originals are plain URLs: the session
// cookie rides along with <img> and links (same origin).
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { api, unwrap } from '../../api/client'
import { errorMessage } from '../../api/errors'
import type { Schema } from '../../api/types'
import { useSession } from '../../app/session'
import { formatDateTime } from '../../lib/time'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { useToast } from '../../ui/toast'

type Attachment = Schema<'Attachment'>

const attachmentsKey = (jobId: string) => ['jobs', 'attachments', jobId] as const

function useJobAttachments(jobId: string) {
  return useQuery({
    queryKey: attachmentsKey(jobId),
    queryFn: async () =>
      (await unwrap(api.GET('/jobs/{id}/attachments', { params: { path: { id: jobId } } }))).attachments,
  })
}

function useUploadFile(jobId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (file: File) =>
      (
        await unwrap(
          api.POST('/jobs/{id}/attachments', {
            params: { path: { id: jobId }, query: { kind: 'FILE', filename: file.name } },
            // The raw bytes are the body (the schema types them as a string).
            body: file as unknown as string,
            bodySerializer: (body) => body,
            headers: { 'Content-Type': file.type || 'application/octet-stream' },
          }),
        )
      ).attachment,
    onSuccess: () => refreshProof(queryClient, jobId),
  })
}

/** The list and the proof card's counts both change with an attachment. */
function refreshProof(queryClient: QueryClient, jobId: string) {
  void queryClient.invalidateQueries({ queryKey: attachmentsKey(jobId) })
  void queryClient.invalidateQueries({ queryKey: ['jobs', 'completion', jobId] })
}

function useDeleteAttachment(jobId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (attachmentId: string) =>
      unwrap(
        api.DELETE('/jobs/{id}/attachments/{attachmentId}', {
          params: { path: { id: jobId, attachmentId } },
        }),
      ),
    onSuccess: () => refreshProof(queryClient, jobId),
  })
}

function describe(attachment: Attachment): string {
  if (attachment.kind === 'SIGNATURE') return `Signature of ${attachment.signerName ?? 'the customer'}`
  if (attachment.kind === 'PHOTO') return `Photo ${attachment.filename}`
  return attachment.filename
}

export function JobAttachments({ jobId, timeZone }: { jobId: string; timeZone: string }) {
  const attachments = useJobAttachments(jobId)
  const upload = useUploadFile(jobId)
  const remove = useDeleteAttachment(jobId)
  const toast = useToast()
  const isAdmin = useSession().user.role === 'ADMIN'
  const input = useRef<HTMLInputElement>(null)
  const [deleting, setDeleting] = useState<Attachment | null>(null)
  const deleteButton = (a: Attachment) => (
    <Button size="sm" variant="ghost" onClick={() => setDeleting(a)} aria-label={`Delete ${describe(a)}`}>
      Delete
    </Button>
  )
  const all = attachments.data ?? []
  const pictures = all.filter((a) => a.thumbnailUrl !== null)
  const files = all.filter((a) => a.thumbnailUrl === null)

  const attach = (file: File | undefined) => {
    if (!file) return
    upload.mutate(file, { onSuccess: (added) => toast.success(`Attached ${added.filename}`) })
  }
  const when = (a: Attachment) => formatDateTime(a.signedAt ?? a.createdAt, timeZone)

  return (
    <section className="section" aria-labelledby="attachments-title">
      <div className="section-header">
        <h2 id="attachments-title">Attachments</h2>
        <div className="section-actions">
          <Button size="sm" pending={upload.isPending} onClick={() => input.current?.click()}>
            Attach a file
          </Button>
          <input
            ref={input}
            type="file"
            accept="application/pdf,image/*"
            className="visually-hidden"
            aria-label="File to attach"
            tabIndex={-1}
            onChange={(event) => {
              attach(event.target.files?.[0])
              event.target.value = ''
            }}
          />
        </div>
      </div>
      {upload.error && <Banner tone="danger">{errorMessage(upload.error)}</Banner>}
      <div className="card">
        <div className="card-body">
          {attachments.error ? (
            <Banner tone="danger">{errorMessage(attachments.error)}</Banner>
          ) : all.length === 0 ? (
            <p className="muted">
              {attachments.isPending ? 'Loading…' : 'No photos, signature or files yet.'}
            </p>
          ) : (
            <>
              {pictures.length > 0 && (
                <ul className="attachment-grid" aria-label="Photos and signatures">
                  {pictures.map((a) => (
                    <li key={a.id} className="attachment-tile">
                      <a
                        href={a.contentUrl}
                        target="_blank"
                        rel="noreferrer"
                        aria-label={`Open ${describe(a)}`}
                      >
                        <img src={a.thumbnailUrl ?? ''} alt={describe(a)} loading="lazy" />
                      </a>
                      <span className="attachment-caption">
                        {a.kind === 'SIGNATURE' ? (a.signerName ?? '') : 'Photo'}
                        <span className="muted"> · {when(a)}</span>
                      </span>
                      {isAdmin && deleteButton(a)}
                    </li>
                  ))}
                </ul>
              )}
              {files.length > 0 && (
                <ul className="attachment-files" aria-label="Files">
                  {files.map((a) => (
                    <li key={a.id}>
                      <a href={a.contentUrl} target="_blank" rel="noreferrer">
                        {a.filename}
                      </a>
                      <span className="muted"> · {when(a)}</span>
                      {isAdmin && deleteButton(a)}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </div>
      </div>
      {deleting && (
        <ConfirmDialog
          title="Delete this attachment?"
          confirmLabel="Delete"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                setDeleting(null)
                toast.success('Attachment deleted')
              },
            })
          }
          onClose={() => {
            setDeleting(null)
            remove.reset()
          }}
        >
          <p>
            <strong>{describe(deleting)}</strong> and its content are removed for good, even from the proof of
            a completed job.
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}
