// A form template's fields as controls: text, long text, number (with its min and max), yes/no and
// single choice, required ones marked, each with its error (the server's `/body/answers/<key>`
// detail, or the app's own check when the answers are kept to send later).
import { useId } from 'react'
import { ApiError } from '../../api/errors'
import type { FormAnswers, FormField } from './types'

/** What the worker has typed or chosen, by field key (numbers as typed). */
export type Draft = Record<string, string>

/** The answers to send: empty fields left out, numbers as numbers, yes/no as booleans. */
export function answersOf(fields: readonly FormField[], draft: Draft): FormAnswers {
  const answers: FormAnswers = {}
  for (const field of fields) {
    const value = draft[field.key]?.trim() ?? ''
    if (value === '') continue
    if (field.type === 'NUMBER') answers[field.key] = Number(value)
    else if (field.type === 'YES_NO') answers[field.key] = value === 'yes'
    else answers[field.key] = draft[field.key] ?? ''
  }
  return answers
}

/** The checks the server makes that the phone can make too, for answers kept while offline. */
export function checkAnswers(fields: readonly FormField[], draft: Draft): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const field of fields) {
    const value = draft[field.key]?.trim() ?? ''
    if (value === '') {
      if (field.required) errors[field.key] = 'is required'
      continue
    }
    if (field.type === 'NUMBER') {
      const number = Number(value)
      if (!Number.isFinite(number)) errors[field.key] = 'must be a number'
      else if (field.min !== null && number < field.min) errors[field.key] = `must be at least ${field.min}`
      else if (field.max !== null && number > field.max) errors[field.key] = `must be at most ${field.max}`
    }
  }
  return errors
}

/** The server's field errors by answer key; the rest as one message. */
export function answerErrors(error: unknown): { fields: Record<string, string>; form: string | null } {
  if (!(error instanceof ApiError))
    return { fields: {}, form: error ? String((error as Error).message ?? error) : null }
  const fields: Record<string, string> = {}
  for (const { path, message } of error.details) {
    const key = /^\/body\/answers\/([^/]+)/.exec(path)?.[1]
    if (key && !(key in fields)) fields[key] = message
  }
  const shown = Object.keys(fields).length
  return { fields, form: shown > 0 && shown === error.details.length ? null : error.message }
}

/** "is required (Pressure)" → "is required": the label is already in front. */
function withoutLabel(message: string, label: string): string {
  const suffix = ` (${label})`
  return message.endsWith(suffix) ? message.slice(0, -suffix.length) : message
}

function numberHint(field: FormField): string | null {
  if (field.min !== null && field.max !== null) return `Between ${field.min} and ${field.max}`
  if (field.min !== null) return `At least ${field.min}`
  if (field.max !== null) return `At most ${field.max}`
  return null
}

export function FormFieldControl({
  field,
  value,
  error,
  onChange,
}: {
  field: FormField
  value: string
  error: string | undefined
  onChange: (value: string) => void
}) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const hint = field.type === 'NUMBER' ? numberHint(field) : null
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined
  const label = (
    <>
      {field.label}
      {field.required ? (
        <span className="my-required"> (required)</span>
      ) : (
        <span className="field-optional"> (optional)</span>
      )}
    </>
  )
  const messages = (
    <>
      {error && (
        <span className="field-error" id={errorId}>
          {/^[a-z]/.test(error) ? `${field.label} ${withoutLabel(error, field.label)}` : error}
        </span>
      )}
      {hint && (
        <span className="field-hint" id={hintId}>
          {hint}
        </span>
      )}
    </>
  )
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
  }

  if (field.type === 'YES_NO' || field.type === 'CHOICE') {
    const options =
      field.type === 'YES_NO'
        ? [
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ]
        : field.options.map((option) => ({ value: option, label: option }))
    return (
      <fieldset
        className="field my-choice"
        aria-invalid={common['aria-invalid']}
        aria-describedby={describedBy}
      >
        <legend className="field-label">{label}</legend>
        <div className={field.type === 'YES_NO' ? 'my-choice-row' : 'my-choice-column'}>
          {options.map((option) => (
            <label key={option.value} className="my-choice-option">
              <input
                type="radio"
                name={`${id}-${field.key}`}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
              />
              {option.label}
            </label>
          ))}
        </div>
        {messages}
      </fieldset>
    )
  }
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {field.type === 'LONG_TEXT' ? (
        <textarea
          {...common}
          className="textarea"
          rows={4}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          {...common}
          className="input"
          type={field.type === 'NUMBER' ? 'number' : 'text'}
          inputMode={field.type === 'NUMBER' ? 'decimal' : undefined}
          step={field.type === 'NUMBER' ? 'any' : undefined}
          min={field.min ?? undefined}
          max={field.max ?? undefined}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {messages}
    </div>
  )
}
