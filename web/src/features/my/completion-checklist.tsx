// What completing a job needs, as a checklist the worker reads before Complete: each requirement the
// job and its form templates set (a signature, so many photos, notes, the forms), ticked when it is
// there. The server refuses a completion without them (422 COMPLETION_REQUIREMENTS); this says so first.
import type { Completion } from './types'

interface Item {
  label: string
  done: boolean
  detail?: string
}

/**
 * The checklist's lines; `notes` is what the worker has typed into the dialog so far, `queued` the
 * photos and signatures still waiting on the phone (they count, said as waiting to send: the queue
 * sends them before a completion made after them).
 */
export function checklistItems(
  completion: Completion,
  notes: string,
  queued: { photos: number; signatures: number } = { photos: 0, signatures: 0 },
): Item[] {
  const { requires } = completion
  const has = {
    ...completion.has,
    photos: completion.has.photos + queued.photos,
    signatures: completion.has.signatures + queued.signatures,
  }
  const items: Item[] = has.forms.map((form) => ({ label: `Form: ${form.name}`, done: form.submitted }))
  if (requires.signature) {
    const waiting = completion.has.signatures === 0 && queued.signatures > 0
    items.push({
      label: "Customer's signature",
      done: has.signatures > 0,
      ...(waiting && { detail: 'waiting to send' }),
    })
  }
  if (requires.photos > 0) {
    items.push({
      label: `${requires.photos} photo${requires.photos === 1 ? '' : 's'}`,
      done: has.photos >= requires.photos,
      detail:
        `${Math.min(has.photos, requires.photos)} of ${requires.photos}` +
        (queued.photos > 0 ? `, ${queued.photos} waiting to send` : ''),
    })
  }
  if (requires.notes) {
    items.push({ label: 'Notes on what was done', done: has.notes !== null || notes.trim() !== '' })
  }
  return items
}

export function CompletionChecklist({ items }: { items: Item[] }) {
  if (items.length === 0) return null
  return (
    <ul className="my-checklist" aria-label="Needed to complete">
      {items.map((item) => (
        <li key={item.label} className={item.done ? 'is-done' : 'is-missing'}>
          <span className="my-checklist-mark" aria-hidden="true">
            {item.done ? '✓' : '○'}
          </span>
          <span>
            {item.label}
            {item.detail && <span className="muted"> · {item.detail}</span>}
            <span className="visually-hidden">{item.done ? ' (done)' : ' (still needed)'}</span>
          </span>
        </li>
      ))}
    </ul>
  )
}
