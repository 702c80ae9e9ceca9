import { type RefObject, useState } from 'react'
import { Button } from './button'

/**
 * Copies a value to the clipboard and says so for a moment. Without clipboard access (an insecure
 * origin, a locked-down browser) it selects `fallbackTarget`'s text instead, so Ctrl+C still works.
 */
export function CopyButton({
  value,
  label = 'Copy',
  fallbackTarget,
}: {
  value: string
  label?: string
  fallbackTarget?: RefObject<HTMLElement | null>
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'selected'>('idle')
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setState('copied')
    } catch {
      const target = fallbackTarget?.current
      if (target instanceof HTMLInputElement) {
        target.focus()
        target.select()
      } else if (target) {
        const range = document.createRange()
        range.selectNodeContents(target)
        window.getSelection()?.removeAllRanges()
        window.getSelection()?.addRange(range)
      }
      setState('selected')
    }
    setTimeout(() => setState('idle'), 2000)
  }
  return (
    <Button onClick={copy}>
      <span aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'selected' ? 'Selected: press Ctrl+C' : label}
      </span>
    </Button>
  )
}
