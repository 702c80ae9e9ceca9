// The header's one search (GET /search): jobs by number, title or customer, customers by name,
// address, email or phone. The WAI-ARIA combobox pattern: the input keeps focus, arrow keys move the
// active option (aria-activedescendant), Enter or a click opens it, Escape closes the list; "/"
// anywhere outside a field focuses the box. Results are text nodes only (what users typed never
// reaches HTML).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { api, unwrap } from '../api/client'
import type { Schema } from '../api/types'
import { displayPhone } from '../lib/phone'
import { formatDate } from '../lib/time'
import { useTimeZone } from './time-zone'

type Option =
  | { kind: 'job'; id: string; job: Schema<'JobFound'> }
  | { kind: 'customer'; id: string; customer: Schema<'CustomerFound'> }

const DEBOUNCE_MS = 200
const LIMIT = 8

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/** Whether a key press belongs to something that takes text (then "/" is a character, not a shortcut). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

export function HeaderSearch() {
  const navigate = useNavigate()
  const timeZone = useTimeZone()
  const inputRef = useRef<HTMLInputElement>(null)
  const listId = useId()
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const q = useDebounced(text.trim(), DEBOUNCE_MS)
  const results = useQuery({
    queryKey: ['search', q],
    queryFn: () => unwrap(api.GET('/search', { params: { query: { q, limit: LIMIT } } })),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  })

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target))
        return
      event.preventDefault()
      inputRef.current?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  const found = q.length > 0 ? results.data : undefined
  const options: Option[] = [
    ...(found?.jobs ?? []).map((job) => ({ kind: 'job' as const, id: job.id, job })),
    ...(found?.customers ?? []).map((customer) => ({ kind: 'customer' as const, id: customer.id, customer })),
  ]
  const expanded = open && q.length > 0 && found !== undefined
  const optionId = (index: number) => `${listId}-option-${index}`

  const choose = (option: Option | undefined) => {
    if (!option) return
    setOpen(false)
    setText('')
    inputRef.current?.blur()
    navigate(option.kind === 'job' ? `/jobs/${option.id}` : `/customers?customer=${option.id}`)
  }

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      setOpen(true)
      if (options.length === 0) return
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((current) => (current + step + options.length) % options.length)
    } else if (event.key === 'Enter') {
      if (expanded) {
        event.preventDefault()
        choose(options[active])
      }
    } else if (event.key === 'Escape') {
      if (expanded) setOpen(false)
      else setText('')
    }
  }

  const jobs = options.filter((option) => option.kind === 'job')
  const renderOption = (option: Option) => {
    const index = options.indexOf(option)
    return (
      // The input owns the keyboard (aria-activedescendant); a mouse click chooses too.
      // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys
      <div
        tabIndex={-1}
        key={`${option.kind}-${option.id}`}
        id={optionId(index)}
        role="option"
        aria-selected={index === active}
        className="header-search-option"
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => choose(option)}
        onMouseEnter={() => setActive(index)}
      >
        {option.kind === 'job' ? (
          <>
            <span className="header-search-primary">
              <span className="mono">{option.job.number}</span> {option.job.title}
            </span>
            <span className="header-search-secondary">
              {[option.job.customerName, option.job.date ? formatDate(option.job.date, timeZone) : null]
                .filter(Boolean)
                .join(' · ') || 'No customer'}
            </span>
          </>
        ) : (
          <>
            <span className="header-search-primary">{option.customer.name}</span>
            <span className="header-search-secondary">
              {[option.customer.address, option.customer.phone && displayPhone(option.customer.phone)]
                .filter(Boolean)
                .join(' · ') || 'No address'}
            </span>
          </>
        )}
      </div>
    )
  }

  return (
    <search className="header-search">
      <input
        ref={inputRef}
        className="input header-search-input"
        type="text"
        role="combobox"
        aria-label="Search jobs and customers"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && options.length > 0 ? optionId(active) : undefined}
        aria-keyshortcuts="/"
        placeholder="Search jobs, customers, phone…  /"
        autoComplete="off"
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          setActive(0)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Search results"
        className="header-search-list"
        hidden={!expanded}
      >
        {!expanded ? null : options.length === 0 ? (
          <div className="header-search-empty" role="presentation">
            {results.isError ? 'Search failed: try again' : `Nothing found for “${q}”`}
          </div>
        ) : (
          <>
            {jobs.length > 0 && (
              <div role="presentation" className="header-search-heading">
                Jobs
              </div>
            )}
            {jobs.map(renderOption)}
            {options.length > jobs.length && (
              <div role="presentation" className="header-search-heading">
                Customers
              </div>
            )}
            {options.filter((option) => option.kind === 'customer').map(renderOption)}
          </>
        )}
      </div>
    </search>
  )
}
