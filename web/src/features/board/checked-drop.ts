// The day board's and the week view's drops follow one rule (board-changes.ts decideDrop): the
// server's check of the slot decides whether a drop is sent, refused with its reason, or waits for a
// second drop on the same slot. Here are the state and the toasts that go with it, and the words the
// drop target shows while dragging, so that both views behave alike.
import { useRef, useState } from 'react'
import { useToast } from '../../ui/toast'
import { decideDrop, sameSlot, type Verdict, verdictOf } from './board-changes'
import { type Slot, useAssignmentCheck, useFetchAssignmentCheck } from './queries'

/**
 * `decide(slot, refused)` on a drop: true when it is to be sent; otherwise it has said why (an error
 * toast "`refused`: reason", or the "drop again to confirm" toast). `awaiting` is the slot a SOFT
 * problem asked to confirm; `forget()` drops it (after an undo).
 */
export function useCheckedDrop() {
  const toast = useToast()
  const fetchCheck = useFetchAssignmentCheck()
  const [awaiting, setAwaiting] = useState<Slot | null>(null)
  /** The "drop again to confirm" toast, gone once the next drop is decided. */
  const confirmToast = useRef<number | null>(null)

  const decide = async (slot: Slot, refused: string): Promise<boolean> => {
    // Checked while dragging (cached), or now for a quick drop; unreadable: the server decides.
    const problems = await fetchCheck(slot).catch(() => undefined)
    const decision = decideDrop(slot, problems, awaiting)
    if (confirmToast.current !== null) toast.dismiss(confirmToast.current)
    confirmToast.current = null
    if (decision.action === 'refuse') {
      setAwaiting(null)
      toast.error(`${refused}: ${decision.message}`)
      return false
    }
    if (decision.action === 'confirm') {
      setAwaiting(slot)
      confirmToast.current = toast.warning(decision.message)
      return false
    }
    setAwaiting(null)
    return true
  }

  return { awaiting, decide, forget: () => setAwaiting(null) }
}

/** What the drop target says while dragging over `target`: its tone, and the reason in words. */
export function useDropVerdict(
  target: Slot | null,
  awaiting: Slot | null,
): { verdict: Verdict; text: string | undefined } {
  const check = useAssignmentCheck(target)
  const verdict: Verdict = check.isError ? { tone: 'ok' } : verdictOf(check.data)
  const text =
    verdict.tone === 'hard' || verdict.tone === 'soft'
      ? `${verdict.message}${verdict.tone === 'soft' && sameSlot(target, awaiting) ? ' — drop again to confirm' : ''}`
      : undefined
  return { verdict, text }
}
