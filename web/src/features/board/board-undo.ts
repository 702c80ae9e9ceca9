// Undo of the board's last change (an assign, a move, an unassign) for 30 seconds: its success toast
// carries an Undo button, and Ctrl+Z (Cmd+Z on a Mac) does the same while no text field has the
// focus. Undoing makes the inverse call (see undoOf), so webhooks tell integrators both sides; the
// undo itself is not undoable, and another change or 30 seconds make it unavailable.
import { useEffect, useRef } from 'react'
import { useToast } from '../../ui/toast'
import { type BoardChange, isUndoKey } from './board-changes'

export const UNDO_MS = 30_000

const NOT_TEXT = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'])

/** Ctrl+Z there belongs to the field (its own undo of typing). */
function takesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable || target instanceof HTMLTextAreaElement) return true
  if (target instanceof HTMLSelectElement) return true
  return target instanceof HTMLInputElement && !NOT_TEXT.has(target.type)
}

const onMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

interface Pending {
  change: BoardChange
  toastId: number
  timer: ReturnType<typeof setTimeout>
}

/**
 * `changed(message, inverse)` after each change made on the board: the success toast, with Undo when
 * there is an inverse. `run` makes the inverse call (and says "Undone").
 */
export function useBoardUndo(run: (change: BoardChange) => void) {
  const toast = useToast()
  const pending = useRef<Pending | null>(null)
  const runRef = useRef(run)
  runRef.current = run

  const undo = useRef(() => {
    const last = pending.current
    if (!last) return
    clearTimeout(last.timer)
    pending.current = null
    toast.dismiss(last.toastId)
    runRef.current(last.change)
  }).current

  const forget = useRef(() => {
    const last = pending.current
    if (!last) return
    clearTimeout(last.timer)
    pending.current = null
    toast.dismiss(last.toastId)
  }).current

  useEffect(() => {
    const mac = onMac()
    const onKey = (event: KeyboardEvent) => {
      if (!pending.current || event.defaultPrevented || !isUndoKey(event, mac) || takesText(event.target))
        return
      event.preventDefault()
      undo()
    }
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      const last = pending.current
      if (last) clearTimeout(last.timer)
      pending.current = null
    }
  }, [undo])

  const changed = (message: string, inverse: BoardChange | null) => {
    forget()
    if (!inverse) {
      toast.success(message)
      return
    }
    const toastId = toast.success(message, {
      action: { label: 'Undo', onClick: undo },
      durationMs: UNDO_MS,
    })
    const timer = setTimeout(() => {
      if (pending.current?.toastId === toastId) pending.current = null
    }, UNDO_MS)
    pending.current = { change: inverse, toastId, timer }
  }

  return { changed, undo, forget }
}
