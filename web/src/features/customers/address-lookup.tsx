// An address field that offers matches as you type (GET /geocode: the service's Nominatim or Photon,
// GEOCODER_URL) and hands the chosen one's coordinates to its dialog. The WAI-ARIA combobox pattern,
// as the header search: the input keeps focus, arrows move the active match, Enter or a click picks
// it, Escape closes the list (not the dialog). Asked only for text the user typed (3 characters or
// more, after a pause). Without a geocoder (GET /organisation/map says `addressLookup: false`, or a
// lookup answers 404 GEOCODER_NOT_CONFIGURED) it is a plain text field that says so: the pin is placed
// on the map or the coordinates typed.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type ReactNode, useEffect, useId, useState } from 'react'
import { api, unwrap } from '../../api/client'
import { ApiError } from '../../api/errors'
import type { Schema } from '../../api/types'
import { Field } from '../../ui/form'
import { useMapSettings } from '../map/tile-settings'
import './address-lookup.css'

export type AddressMatch = Schema<'GeocodeMatch'>

const DEBOUNCE_MS = 350
const MIN_LENGTH = 3

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/** Set once the service has said it has no geocoder: no more lookups from this page. */
let lookupUnavailable = false

export function AddressLookup({
  label,
  value,
  onChange,
  onPick,
  error,
  hint,
  keptHint,
  withMap = true,
  optional,
  placeholder,
}: {
  label: string
  value: string
  onChange: (text: string) => void
  onPick: (match: AddressMatch) => void
  error?: string | undefined
  hint?: ReactNode
  /** The part of the hint that still holds without a lookup (the hint is about picking matches). */
  keptHint?: string
  /** Whether the dialog has a map to place a pin on; else the coordinates are typed. */
  withMap?: boolean
  optional?: boolean
  placeholder?: string
}) {
  const listId = useId()
  const [typed, setTyped] = useState(false)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const [picked, setPicked] = useState<string | null>(null)
  const q = useDebounced(value.trim(), DEBOUNCE_MS)
  // The maps' settings say whether the service looks addresses up.
  const settings = useMapSettings()
  const available = settings.data?.addressLookup === true && !lookupUnavailable
  const wanted = typed && available && q.length >= MIN_LENGTH && q.length <= 200 && q !== picked
  const lookup = useQuery({
    queryKey: ['geocode', q.toLowerCase()],
    queryFn: () => unwrap(api.GET('/geocode', { params: { query: { q } } })),
    enabled: wanted,
    placeholderData: keepPreviousData,
    staleTime: 10 * 60_000,
    retry: false,
  })
  const notConfigured = lookup.error instanceof ApiError && lookup.error.code === 'GEOCODER_NOT_CONFIGURED'
  if (notConfigured) lookupUnavailable = true
  const matches = wanted ? (lookup.data?.matches ?? []) : []
  const expanded = open && matches.length > 0
  const optionId = (index: number) => `${listId}-${index}`
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new list starts at its first match
  useEffect(() => setActive(0), [lookup.data])

  const pick = (match: AddressMatch | undefined) => {
    if (!match) return
    setOpen(false)
    setPicked(match.label)
    onPick(match)
  }

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (matches.length === 0) return
      event.preventDefault()
      if (!open) {
        setOpen(true)
        return
      }
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((current) => (current + step + matches.length) % matches.length)
    } else if (event.key === 'Enter' && expanded) {
      event.preventDefault()
      pick(matches[active])
    } else if (event.key === 'Escape' && expanded) {
      // The list closes; the dialog stays.
      event.preventDefault()
      event.stopPropagation()
      setOpen(false)
    }
  }

  // Where the coordinates come from instead: the dialog's map pin, or only the fields.
  const otherwise = withMap ? 'place the pin on the map, or type the coordinates' : 'type the coordinates'
  const status = !wanted
    ? ''
    : lookup.isFetching
      ? 'Looking up the address…'
      : lookup.error && !notConfigured
        ? `Address lookup is not available right now: ${otherwise}.`
        : lookup.data && matches.length === 0
          ? `No address found: check the spelling, or ${otherwise}.`
          : ''

  return (
    <Field
      label={label}
      hint={
        settings.data && !available
          ? `${keptHint ? `${keptHint} ` : ''}No address lookup on this service: ${otherwise}.`
          : hint
      }
      optional={optional}
      error={error}
    >
      {(control) => (
        <div className="address-lookup">
          <input
            {...control}
            className="input"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded ? optionId(active) : undefined}
            autoComplete="off"
            placeholder={placeholder}
            value={value}
            onChange={(event) => {
              setTyped(true)
              setOpen(true)
              setPicked(null)
              onChange(event.target.value)
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setOpen(false)}
            onFocus={() => setOpen(true)}
          />
          <div
            id={listId}
            role="listbox"
            aria-label="Matches"
            className="address-lookup-list"
            hidden={!expanded}
          >
            {matches.map((match, index) => (
              // The input owns the keyboard (aria-activedescendant); a click picks too.
              // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys
              <div
                key={`${match.latitude},${match.longitude},${match.label}`}
                id={optionId(index)}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                className="address-lookup-option"
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => pick(match)}
              >
                <span>{match.label}</span>
                <span className="address-lookup-coordinates mono">
                  {match.latitude}, {match.longitude}
                </span>
              </div>
            ))}
          </div>
          <span className="address-lookup-status" aria-live="polite">
            {status}
          </span>
        </div>
      )}
    </Field>
  )
}
