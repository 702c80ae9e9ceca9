// The controls of a form bound to its form state (use-form-state.ts) in one line each: a labelled
// control whose value, change and error (the form's own check, else the server's) come from the
// state by the field's name, so a dialog lists its fields instead of wiring each one.
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react'
import { Field } from './form'
import type { BooleanField, FormState, StringField } from './use-form-state'

interface Labelled<V> {
  form: FormState<V>
  name: StringField<V>
  label: string
  hint?: ReactNode
  optional?: boolean
}

type Native<T> = Omit<T, 'form' | 'name' | 'value' | 'onChange' | 'id'>

export function TextField<V>({
  form,
  name,
  label,
  hint,
  optional,
  className = 'input',
  ...input
}: Labelled<V> & Native<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <Field label={label} hint={hint} optional={optional} error={form.error(name)}>
      {(control) => <input {...control} className={className} {...input} {...form.text(name)} />}
    </Field>
  )
}

export function TextAreaField<V>({
  form,
  name,
  label,
  hint,
  optional,
  ...textarea
}: Labelled<V> & Native<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <Field label={label} hint={hint} optional={optional} error={form.error(name)}>
      {(control) => <textarea {...control} className="textarea" {...textarea} {...form.text(name)} />}
    </Field>
  )
}

/**
 * A select whose options are its children (their values are the field's allowed values); `value`
 * shows another option while the field is empty (the one an empty choice will be sent as).
 */
export function SelectField<V>({
  form,
  name,
  label,
  hint,
  optional,
  value,
  children,
  ...select
}: Labelled<V> & Native<SelectHTMLAttributes<HTMLSelectElement>> & { value?: string }) {
  const bound = form.text(name)
  return (
    <Field label={label} hint={hint} optional={optional} error={form.error(name)}>
      {(control) => (
        <select {...control} className="select" {...select} {...bound} value={value ?? bound.value}>
          {children}
        </select>
      )}
    </Field>
  )
}

/** A checkbox with its label and a hint under it (the `choice` look). */
export function CheckboxChoice<V>({
  form,
  name,
  label,
  hint,
  className = 'choice',
}: {
  form: FormState<V>
  name: BooleanField<V>
  label: string
  hint: ReactNode
  className?: string
}) {
  return (
    <label className={className}>
      <input type="checkbox" {...form.checkbox(name)} />
      <span>
        {label}
        <span className="choice-hint">{hint}</span>
      </span>
    </label>
  )
}

export interface RadioOption<T> {
  value: T
  label: ReactNode
  hint?: ReactNode
}

/** One choice of a few, each a labelled radio button with an optional hint under it. */
export function RadioChoices<T extends string | number>({
  legend,
  name,
  value,
  options,
  onChange,
  className = 'choice-group',
}: {
  legend: ReactNode
  /** The radio group's name (unique in the dialog). */
  name: string
  value: T
  options: readonly RadioOption<T>[]
  onChange: (value: T) => void
  className?: string
}) {
  return (
    <fieldset className={className}>
      <legend className="field-label">{legend}</legend>
      {options.map((option) => (
        <label className="choice" key={option.value}>
          <input
            type="radio"
            name={name}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          <span>
            {option.label}
            {option.hint && <span className="choice-hint">{option.hint}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  )
}
