// The controls of a list's filters row: a choice among a few values ("any" first) and a search box,
// each labelled (so named for screen readers and tests) and kept by the page in the URL.
import { Field } from './form'

/** A filter's choices, "any" first (its value is '', which takes the filter out of the URL). */
export function FilterSelect({
  label,
  value,
  anyLabel,
  options,
  onChange,
}: {
  label: string
  value: string | undefined
  anyLabel: string
  options: readonly { value: string; label: string }[]
  onChange: (value: string) => void
}) {
  return (
    <Field label={label}>
      {(control) => (
        <select
          {...control}
          className="select"
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">{anyLabel}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

/** The search box of a list (its text debounced into `?q=` by useSearchText). */
export function SearchFilter({
  value,
  onChange,
  placeholder,
}: {
  value: string
  onChange: (text: string) => void
  placeholder: string
}) {
  return (
    <Field label="Search">
      {(control) => (
        <input
          {...control}
          className="input"
          type="search"
          placeholder={placeholder}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  )
}
