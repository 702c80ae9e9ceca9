// One form state for every dialog (cal.com's dialogs share one helper too): the values typed, the
// server's field errors beside their fields (the ApiError's `details` paths, `/body/name` → `name`),
// the problems a form finds itself before sending (a number that is not one), whether anything
// changed and whether it is being sent. Dialogs are rendered only while open, so a dialog starts
// from its initial values each time it opens; `reset` starts again without closing.
import { type ChangeEvent, useRef, useState } from 'react'
import { serverErrors } from './form'

/** What a form's send looks like to it: a TanStack mutation fits. */
export interface Submission {
  error: unknown
  isPending: boolean
  reset?: () => void
}

export type Problems = Record<string, string>

export type StringField<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string
export type BooleanField<V> = { [K in keyof V]: V[K] extends boolean ? K : never }[keyof V] & string

export interface FormState<V> {
  values: V
  setField: <K extends keyof V>(field: K, value: V[K]) => void
  /** `value` and `onChange` for an input, textarea or select holding a string field. */
  text: <K extends StringField<V>>(
    field: K,
  ) => { value: string; onChange: (event: ChangeEvent<Editable>) => void }
  /** `checked` and `onChange` for a checkbox holding a boolean field. */
  checkbox: <K extends BooleanField<V>>(
    field: K,
  ) => { checked: boolean; onChange: (event: ChangeEvent<HTMLInputElement>) => void }
  /** The message to show next to a field: the form's own check first, then the server's. */
  error: (field: string) => string | undefined
  /** The server's message for the form as a whole (what no field shows), or null. */
  formError: string | null
  /** Keeps the problems found before sending; true when there are none (send then). */
  check: (problems: Problems) => boolean
  dirty: boolean
  submitting: boolean
  /** Back to the initial values (or `next`), no problems, the last send's error forgotten. */
  reset: (next?: V) => void
}

type Editable = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

export function useFormState<V extends object>(
  initial: V | (() => V),
  { fields, submission }: { fields: readonly string[]; submission: Submission },
): FormState<V> {
  const [values, setValues] = useState(initial)
  const start = useRef(values)
  const [problems, setProblems] = useState<Problems>({})
  const server = serverErrors(submission.error, fields)
  const setField = <K extends keyof V>(field: K, value: V[K]) =>
    setValues((current) => ({ ...current, [field]: value }))
  return {
    values,
    setField,
    // A select's options are the field's allowed values, so its string is one of them.
    text: (field) => ({
      value: values[field] as string,
      onChange: (event) => setField(field, event.target.value as V[typeof field]),
    }),
    checkbox: (field) => ({
      checked: values[field] as boolean,
      onChange: (event) => setField(field, event.target.checked as V[typeof field]),
    }),
    error: (field) => fieldError(problems, server.fields, field),
    formError: server.form,
    check: (found) => {
      setProblems(found)
      return Object.keys(found).length === 0
    },
    dirty: !sameValues(start.current, values),
    submitting: submission.isPending,
    reset: (next) => {
      const to = next ?? start.current
      start.current = to
      setValues(to)
      setProblems({})
      submission.reset?.()
    },
  }
}

/** The form's own problem with a field wins over the server's (it is about what is typed now). */
export function fieldError(problems: Problems, server: Problems, field: string): string | undefined {
  return problems[field] ?? server[field]
}

/** Values as a person sees them: arrays and objects (tags, capacities) compared by content. */
export function sameValues(a: object, b: object): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
