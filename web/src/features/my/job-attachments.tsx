// A job's photos and signature on the phone: what the server has (its thumbnails; a tap opens the
// original) and what waits in the queue (drawn from the bytes kept on the phone, marked "Waiting to
// send"), with "Add photo" and "Signature" while the job is open. The pictures go through the offline
// queue, in order with Start and Complete, so a completion made after them is sent after them.
import { useEffect, useState } from 'react'
import { Badge } from '../../ui/badge'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { useToast } from '../../ui/toast'
import { clock } from './format'
import type { AttachmentAction, QueuedAction } from './offline-queue'
import { preparePhoto } from './photo'
import { useMyAttachments } from './queries'
import { useAddAttachment, useQueue } from './queue-context'
import { SignatureDialog } from './signature-pad'
import type { MyAttachment, MyJob } from './types'

export function pendingAttachments(pending: readonly QueuedAction[]): AttachmentAction[] {
  return pending.filter((action): action is AttachmentAction => action.kind === 'attachment')
}

/** How many photos and signatures wait on the phone: the checklist counts them, as waiting to send. */
export function queuedCounts(pending: readonly QueuedAction[]): { photos: number; signatures: number } {
  const pictures = pendingAttachments(pending)
  return {
    photos: pictures.filter((action) => action.attachmentKind === 'PHOTO').length,
    signatures: pictures.filter((action) => action.attachmentKind === 'SIGNATURE').length,
  }
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)
}

/** "Add photo": the camera (or the gallery), the photo downscaled on the phone, then queued. */
export function AddPhotoButton({ job }: { job: MyJob }) {
  const add = useAddAttachment()
  const toast = useToast()
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const pick = async (files: FileList | null) => {
    setProblem(null)
    setBusy(true)
    try {
      for (const file of Array.from(files ?? [])) {
        const photo = await preparePhoto(file)
        const filename = `photo-${stamp()}.jpg`
        await add(
          { kind: 'attachment', jobId: job.id, jobTitle: job.title, attachmentKind: 'PHOTO', filename },
          photo,
        )
      }
      toast.success('Photo added')
    } catch {
      setProblem('That file is not a photo this phone can read.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <label className="btn btn-sm">
        Add photo
        <input
          type="file"
          accept="image/*"
          capture="environment"
          className="visually-hidden"
          disabled={busy}
          onChange={(event) => {
            void pick(event.target.files)
            event.target.value = ''
          }}
        />
      </label>
      {problem && <Banner tone="danger">{problem}</Banner>}
    </>
  )
}

/** The picture a queued action keeps on the phone, as an object URL while it is shown. */
function useKeptPicture(key: string): string | null {
  const { queue } = useQueue()
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    let made: string | null = null
    let live = true
    void queue.blobs?.get(key).then((blob) => {
      if (!blob || !live) return
      made = URL.createObjectURL(blob)
      setUrl(made)
    })
    return () => {
      live = false
      if (made) URL.revokeObjectURL(made)
    }
  }, [queue, key])
  return url
}

function PendingPicture({ action }: { action: AttachmentAction }) {
  const url = useKeptPicture(action.key)
  const what = action.attachmentKind === 'SIGNATURE' ? `Signature of ${action.signerName ?? ''}` : 'Photo'
  return (
    <li className="my-picture is-pending">
      {url ? <img src={url} alt={`${what}, waiting to send`} /> : <span className="my-picture-empty" />}
      <Badge tone="amber">Waiting to send</Badge>
    </li>
  )
}

function ServerPicture({ attachment, timeZone }: { attachment: MyAttachment; timeZone: string }) {
  const label =
    attachment.kind === 'SIGNATURE'
      ? `Signature of ${attachment.signerName ?? ''}`
      : attachment.kind === 'PHOTO'
        ? 'Photo'
        : attachment.filename
  return (
    <li className="my-picture">
      <a href={attachment.contentUrl} target="_blank" rel="noreferrer" aria-label={`Open ${label}`}>
        {attachment.thumbnailUrl ? (
          <img src={attachment.thumbnailUrl} alt={label} loading="lazy" />
        ) : (
          <span className="my-picture-empty">{attachment.filename}</span>
        )}
      </a>
      <span className="muted">
        {attachment.kind === 'SIGNATURE'
          ? `${attachment.signerName ?? ''}, ${clock(attachment.signedAt ?? attachment.createdAt, timeZone)}`
          : clock(attachment.createdAt, timeZone)}
      </span>
    </li>
  )
}

export function JobAttachments({
  job,
  pending,
  onSign,
}: {
  job: MyJob
  pending: readonly QueuedAction[]
  onSign: () => void
}) {
  const attachments = useMyAttachments(job.id)
  const queued = pendingAttachments(pending)
  const sent = attachments.data ?? []
  const open = job.status !== 'COMPLETED' && job.status !== 'CANCELLED'
  if (!open && sent.length === 0 && queued.length === 0) return null
  return (
    <section className="card my-card" aria-labelledby="pictures-title">
      <h2 id="pictures-title">Photos and signature</h2>
      {sent.length === 0 && queued.length === 0 ? (
        <p className="muted">{attachments.isPending ? 'Loading…' : 'None yet.'}</p>
      ) : (
        <ul className="my-pictures" aria-label="Photos and signatures">
          {queued.map((action) => (
            <PendingPicture key={action.key} action={action} />
          ))}
          {sent.map((attachment) => (
            <ServerPicture key={attachment.id} attachment={attachment} timeZone={job.timeZone} />
          ))}
        </ul>
      )}
      {open && (
        <div className="my-card-actions">
          <AddPhotoButton job={job} />
          <Button size="sm" onClick={onSign}>
            Signature
          </Button>
        </div>
      )}
    </section>
  )
}

/** The signature pad for this job: saved into the queue, like a photo. */
export function SignatureCapture({ job, onClose }: { job: MyJob; onClose: () => void }) {
  const add = useAddAttachment()
  const toast = useToast()
  return (
    <SignatureDialog
      onClose={onClose}
      onSave={async ({ blob, signerName, signedAt }) => {
        const filename = `signature-${stamp()}.png`
        await add(
          {
            kind: 'attachment',
            jobId: job.id,
            jobTitle: job.title,
            attachmentKind: 'SIGNATURE',
            filename,
            signerName,
            signedAt,
          },
          blob,
        )
        toast.success('Signature saved')
        onClose()
      }}
    />
  )
}

/** On My day's card: how many photos and signatures the job has, and the first few, small. */
export function CardPictures({ job, pending }: { job: MyJob; pending: readonly QueuedAction[] }) {
  const attachments = useMyAttachments(job.id)
  const pictures = (attachments.data ?? []).filter((a) => a.kind !== 'FILE')
  const queued = pendingAttachments(pending).length
  const total = pictures.length + queued
  if (total === 0) return null
  return (
    <div className="my-facts-wide">
      <dt>Photos and signature</dt>
      <dd className="my-card-pictures">
        <span>
          {total}
          {queued > 0 && <span className="muted"> ({queued} waiting to send)</span>}
        </span>
        <ul className="my-picture-strip" aria-label={`Pictures of ${job.title}`}>
          {pictures.slice(0, 3).map((a) =>
            a.thumbnailUrl ? (
              <li key={a.id}>
                <a href={a.contentUrl} target="_blank" rel="noreferrer">
                  <img
                    src={a.thumbnailUrl}
                    alt={a.kind === 'SIGNATURE' ? `Signature of ${a.signerName ?? ''}` : 'Photo'}
                    loading="lazy"
                  />
                </a>
              </li>
            ) : null,
          )}
        </ul>
      </dd>
    </div>
  )
}
