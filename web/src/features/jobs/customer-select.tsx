// Choosing a job's customer: a search on the server by name or address, and a list of the matches
// (with the current customer kept in it), so an organisation with thousands of customers still
// finds one in a keystroke or two.
import './jobs.css'
import { useEffect, useState } from 'react'
import { Field } from '../../ui/form'
import { useCustomers } from '../customers/queries'

export function CustomerSelect({
  value,
  current,
  onChange,
  error,
  label = 'Customer',
  emptyLabel = 'No customer',
}: {
  value: string
  /** The chosen customer's name, shown even when the search does not list it. */
  current?: { id: string; name: string } | null | undefined
  onChange: (id: string, customer: { id: string; name: string; serviceDuration?: number } | null) => void
  error?: string | undefined
  label?: string
  emptyLabel?: string
}) {
  const [text, setText] = useState('')
  const [search, setSearch] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 250)
    return () => clearTimeout(timer)
  }, [text])
  const customers = useCustomers(1, search || undefined, 50)
  const list = customers.data?.customers ?? []
  const options = current && !list.some((c) => c.id === current.id) ? [current, ...list] : list
  return (
    <div className="customer-select">
      <Field label={`Find ${label.toLowerCase()}`}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="search"
            placeholder="Name or address"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      <Field label={label} error={error}>
        {(control) => (
          <select
            {...control}
            className="select"
            value={value}
            onChange={(e) => onChange(e.target.value, list.find((c) => c.id === e.target.value) ?? null)}
          >
            <option value="">{emptyLabel}</option>
            {options.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  )
}
