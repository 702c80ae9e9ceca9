// "Completing the job needs": a signature, at least so many photos, notes — the same three controls
// for a form template (every job it applies to) and for one job (its own requirements).
import { useId } from 'react'
import type { Schema } from '../../api/types'

export type Requires = Schema<'Requires'>

export const NOTHING_REQUIRED: Requires = { signature: false, photos: 0, notes: false }

export function RequiresFields({
  value,
  onChange,
  legend = 'Completing the job needs',
  error,
}: {
  value: Requires
  onChange: (next: Requires) => void
  legend?: string
  error?: string | undefined
}) {
  const photosId = useId()
  return (
    <fieldset className="requires-fields">
      <legend>{legend}</legend>
      <label className="choice">
        <input
          type="checkbox"
          checked={value.signature}
          onChange={(event) => onChange({ ...value, signature: event.target.checked })}
        />
        <span>The customer's signature</span>
      </label>
      <div className="requires-photos">
        <label htmlFor={photosId}>Photos, at least</label>
        <input
          id={photosId}
          className="input"
          type="number"
          inputMode="numeric"
          min={0}
          max={20}
          value={value.photos}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            const photos = Math.max(0, Math.min(20, Math.trunc(Number(event.target.value) || 0)))
            onChange({ ...value, photos })
          }}
        />
      </div>
      <label className="choice">
        <input
          type="checkbox"
          checked={value.notes}
          onChange={(event) => onChange({ ...value, notes: event.target.checked })}
        />
        <span>Notes on what was done</span>
      </label>
      {error && <span className="field-error">{error}</span>}
    </fieldset>
  )
}

/** "Signature, 2 photos and notes", or null when nothing is required. */
export function requiresWords(requires: Requires): string | null {
  const parts = [
    requires.signature ? 'signature' : null,
    requires.photos > 0 ? `${requires.photos} photo${requires.photos === 1 ? '' : 's'}` : null,
    requires.notes ? 'notes' : null,
  ].filter((part): part is string => part !== null)
  if (parts.length === 0) return null
  const text =
    parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] as string)
  return text.charAt(0).toUpperCase() + text.slice(1)
}
