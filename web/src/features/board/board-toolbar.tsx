// The board's day, filters and zoom, kept in the URL (date, location, status, priority, tag, zoom) so
// a view can be linked and survives a reload.
import { Link } from 'react-router'
import type { Schema } from '../../api/types'
import { Button } from '../../ui/button'
import { FilterSelect } from '../../ui/filters'
import { Field } from '../../ui/form'
import { addDays, type BoardJob } from './board-model'
import { JOB_STATUSES, STATUS_LOOK } from './status'
import { TIMELINE_ZOOMS, type TimelineZoom } from './timeline'
import './week/week.css'

export type Depot = Schema<'Location'>

/** Day | Week: the board of one day, or the week view (web/src/features/board/week/). */
export function ViewSwitch({
  view,
  dayHref,
  weekHref,
}: {
  view: 'day' | 'week'
  dayHref: string
  weekHref: string
}) {
  return (
    <nav className="view-switch" aria-label="Board view">
      <Link to={dayHref} aria-current={view === 'day' ? 'page' : undefined}>
        Day
      </Link>
      <Link to={weekHref} aria-current={view === 'week' ? 'page' : undefined}>
        Week
      </Link>
    </nav>
  )
}

export function DayPicker({
  date,
  today,
  onChange,
}: {
  date: string
  today: string
  onChange: (date: string) => void
}) {
  return (
    <div className="day-picker">
      <Button aria-label="Previous day" onClick={() => onChange(addDays(date, -1))}>
        ‹
      </Button>
      <Field label="Date">
        {(control) => (
          <input
            {...control}
            className="input"
            type="date"
            value={date}
            required
            onChange={(e) => e.target.value && onChange(e.target.value)}
          />
        )}
      </Field>
      <Button aria-label="Next day" onClick={() => onChange(addDays(date, 1))}>
        ›
      </Button>
      <Button onClick={() => onChange(today)} disabled={date === today}>
        Today
      </Button>
    </div>
  )
}

export function DepotSelect({
  depots,
  value,
  onChange,
  allLabel = 'All depots',
}: {
  depots: Depot[]
  value: string | undefined
  onChange: (locationId: string) => void
  allLabel?: string
}) {
  return (
    <FilterSelect
      label="Depot"
      value={value}
      anyLabel={allLabel}
      options={depots.map((depot) => ({
        value: depot.id,
        label: `${depot.name}${depot.isActive ? '' : ' (inactive)'}`,
      }))}
      onChange={onChange}
    />
  )
}

const PRIORITY_CHOICES = [
  { value: 'HIGH', label: 'High' },
  { value: 'NORMAL', label: 'Normal' },
  { value: 'LOW', label: 'Low' },
]

export function JobFilters({
  jobs,
  status,
  priority,
  tag,
  onChange,
}: {
  jobs: BoardJob[]
  status: string | undefined
  priority: string | undefined
  tag: string | undefined
  onChange: (changes: Record<string, string | undefined>) => void
}) {
  // The tags of the day's jobs (and the one chosen, even if no job has it any more).
  const tags = new Map<string, string>()
  for (const job of jobs) for (const t of job.tags) tags.set(t.id, t.name)
  if (tag && !tags.has(tag)) tags.set(tag, 'Chosen tag')
  return (
    <>
      <FilterSelect
        label="Status"
        value={status}
        anyLabel="Any status"
        options={JOB_STATUSES.map((s) => ({ value: s, label: STATUS_LOOK[s].label }))}
        onChange={(value) => onChange({ status: value })}
      />
      <FilterSelect
        label="Priority"
        value={priority}
        anyLabel="Any priority"
        options={PRIORITY_CHOICES}
        onChange={(value) => onChange({ priority: value })}
      />
      <FilterSelect
        label="Tag"
        value={tag}
        anyLabel="Any tag"
        options={[...tags].map(([id, name]) => ({ value: id, label: name }))}
        onChange={(value) => onChange({ tag: value })}
      />
      {(status || priority || tag) && (
        <Button
          variant="ghost"
          onClick={() => onChange({ status: undefined, priority: undefined, tag: undefined })}
        >
          Clear filters
        </Button>
      )}
    </>
  )
}

/** The zoom of the URL's `zoom` (1 when absent or not one of the zooms). */
export function zoomOf(value: string | undefined): TimelineZoom {
  return TIMELINE_ZOOMS.find((zoom) => String(zoom) === value) ?? 1
}

/** The time axis: the day fitting the width, or 2×, 4×, 8× as wide (scrolling sideways). */
export function ZoomControl({
  zoom,
  onChange,
}: {
  zoom: TimelineZoom
  onChange: (zoom: TimelineZoom) => void
}) {
  return (
    <fieldset className="choice-group board-zoom">
      <legend className="visually-hidden">Zoom the hours</legend>
      <div className="segmented">
        {TIMELINE_ZOOMS.map((option) => (
          <label key={option}>
            <input
              type="radio"
              name="board-zoom"
              checked={zoom === option}
              onChange={() => onChange(option)}
            />
            {option === 1 ? 'Fit day' : `${option}×`}
          </label>
        ))}
      </div>
    </fieldset>
  )
}
