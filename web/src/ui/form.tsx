// Form fields wired for accessibility (label, hint and error tied to the control) and for the
// server's validation errors: `serverErrors(error, fields)` splits an ApiError into the message of
// each field (`details[].path` → next to its input) and the rest (a banner over the form).
import { type ReactNode, useId } from 'react'
import { ApiError, errorMessage } from '../api/errors'
import { Banner } from './banner'

export interface ControlProps {
  id: string
  'aria-invalid': boolean | undefined
  'aria-describedby': string | undefined
}

export function Field({
  label,
  hint,
  error,
  optional,
  children,
}: {
  label: string
  hint?: ReactNode
  error?: string | undefined
  optional?: boolean
  /** Renders the control with the props that tie it to the label, hint and error. */
  children: (control: ControlProps) => ReactNode
}) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
        {optional && <span className="field-optional"> (optional)</span>}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error && (
        <span className="field-error" id={errorId}>
          {/* The API's messages read after the field's name ("must be at least 1 character"). */}
          {/^[a-z]/.test(error) ? `${label} ${error}` : error}
        </span>
      )}
      {hint && (
        <span className="field-hint" id={hintId}>
          {hint}
        </span>
      )}
    </div>
  )
}

export interface ServerErrors {
  /** Message per body field (`name`, `scopes` …), to pass as each Field's `error`. */
  fields: Record<string, string>
  /** Whatever is not shown next to a field, for a banner over the form; null if nothing. */
  form: string | null
}

export function serverErrors(error: unknown, knownFields: readonly string[]): ServerErrors {
  if (!error) return { fields: {}, form: null }
  if (!(error instanceof ApiError)) return { fields: {}, form: errorMessage(error) }
  const all = error.fieldErrors()
  const fields = Object.fromEntries(Object.entries(all).filter(([field]) => knownFields.includes(field)))
  return { fields, form: error.formError(knownFields) }
}

/** The banner for ServerErrors.form (renders nothing when there is none). */
export function FormError({ message }: { message: string | null }) {
  return message ? <Banner tone="danger">{message}</Banner> : null
}
