// A member's colour on the Team page: the swatch beside their name and the Edit dialog's choice of
// the eight. Both draw the route palette (--route-1 … --route-8) that the board, the maps and the
// phone draw the worker in, so what is picked here is what the dispatcher sees there.
import { useId } from 'react'
import { ROUTE_COLOURS } from '../board/worker-colour'

const COLOURS = Array.from({ length: ROUTE_COLOURS }, (_, i) => i + 1)

// Inline because the route-N classes live in board.css, which the Team page does not load.
const swatchStyle = (colour: number) => ({ background: `var(--route-${colour})` })

/** Decorative: the name beside it is what a screen reader reads. */
export function ColourSwatch({ colour }: { colour: number }) {
  return (
    <span className="colour-swatch" data-colour={colour} style={swatchStyle(colour)} aria-hidden="true" />
  )
}

/**
 * Native radios (arrow keys move the choice, Tab leaves the group), each labelled "Colour N" with the
 * number shown under its swatch: the choice never depends on telling the colours apart.
 */
export function ColourChoices({
  value,
  onChange,
  error,
}: {
  value: number
  onChange: (colour: number) => void
  /** The server's refusal (a colour outside 1–8), beside the choice like any field's. */
  error?: string | undefined
}) {
  const labelId = useId()
  return (
    // A div, not a fieldset: a radiogroup, so a screen reader announces "Colour, radio group".
    <div
      className="colour-choices"
      role="radiogroup"
      aria-labelledby={labelId}
      aria-describedby={error ? `${labelId}-error ${labelId}-hint` : `${labelId}-hint`}
    >
      <span className="field-label" id={labelId}>
        Colour
      </span>
      <span className="colour-choices-options">
        {COLOURS.map((colour) => (
          <label className="colour-choice" key={colour}>
            <input
              type="radio"
              name="colour"
              className="visually-hidden"
              checked={value === colour}
              onChange={() => onChange(colour)}
            />
            <span className="colour-choice-swatch" style={swatchStyle(colour)} aria-hidden="true" />
            <span>
              <span className="visually-hidden">Colour </span>
              {colour}
            </span>
          </label>
        ))}
      </span>
      {error && (
        <span className="field-error" id={`${labelId}-error`}>
          {/^[a-z]/.test(error) ? `Colour ${error}` : error}
        </span>
      )}
      <span className="field-hint" id={`${labelId}-hint`}>
        How the board, the maps and the phone draw them.
      </span>
    </div>
  )
}
