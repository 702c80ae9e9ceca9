// The controls of a list's filters row: a choice among a few values ("any" first), a day and a search
// box, each labelled (so named for screen readers and tests) and kept in the URL. A page describes its
// filters as data (ListFilter) and FilterRow draws them, reads their values from the URL and writes
// them back; the page reads the same parameters for its query.
import type { ReactNode } from 'react'
import { type ListParams, useSearchText } from '../lib/search-params'
import { Button } from './button'
import { Field } from './form'

export interface FilterOption {
  value: string
  label: string
}

/** One filter of a list, by the URL parameter that holds it. */
export type ListFilter =
  /** The search box: its text reaches `?q=` after a pause in typing (useSearchText). */
  | { kind: 'search'; placeholder: string }
  | { kind: 'select'; param: string; label: string; anyLabel: string; options: readonly FilterOption[] }
  | { kind: 'date'; param: string; label: string; hint?: string }
  /** A control of the page's own (a customer picker) that sets `param`. */
  | { kind: 'custom'; param: string; control: ReactNode }

/** The URL parameter of each filter. */
export function filterParams(filters: readonly ListFilter[]): string[] {
  return filters.map((filter) => (filter.kind === 'search' ? 'q' : filter.param))
}

/** Whether any of the filters is set, and how to clear them all (back to page 1). */
export function filterState(params: ListParams, filters: readonly ListFilter[]) {
  const names = filterParams(filters)
  return {
    filtered: names.some((name) => params.get(name)),
    clear: () => params.set(Object.fromEntries(names.map((name) => [name, undefined]))),
  }
}

/** The filters row of a list; `clearButton` adds "Clear filters" while any filter is set. */
export function FilterRow({
  params,
  filters,
  clearButton = false,
}: {
  params: ListParams
  filters: readonly ListFilter[]
  clearButton?: boolean
}) {
  const { filtered, clear } = filterState(params, filters)
  return (
    <div className="filters">
      {filters.map((filter) => (
        <FilterControl key={filter.kind === 'search' ? 'q' : filter.param} params={params} filter={filter} />
      ))}
      {clearButton && filtered && (
        <Button variant="ghost" onClick={clear}>
          Clear filters
        </Button>
      )}
    </div>
  )
}

function FilterControl({ params, filter }: { params: ListParams; filter: ListFilter }) {
  switch (filter.kind) {
    case 'search':
      return <SearchBox params={params} placeholder={filter.placeholder} />
    case 'select':
      return (
        <FilterSelect
          label={filter.label}
          value={params.get(filter.param)}
          anyLabel={filter.anyLabel}
          options={filter.options}
          onChange={(value) => params.set({ [filter.param]: value })}
        />
      )
    case 'date':
      return (
        <Field label={filter.label} hint={filter.hint}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="date"
              value={params.get(filter.param) ?? ''}
              onChange={(e) => params.set({ [filter.param]: e.target.value })}
            />
          )}
        </Field>
      )
    case 'custom':
      return filter.control
  }
}

/** The search box bound to `?q=`; when the URL changes otherwise (Clear filters, Back), it follows. */
function SearchBox({ params, placeholder }: { params: ListParams; placeholder: string }) {
  const [text, setText] = useSearchText(params, { followUrl: true })
  return <SearchFilter value={text} onChange={setText} placeholder={placeholder} />
}

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
