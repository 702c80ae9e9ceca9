// The board's day and filters, kept in the URL (date, location, status, priority, tag) so a view can
// be linked and survives a reload.
import type { Schema } from '../../api/types'
import { Button } from '../../ui/button'
import { Field } from '../../ui/form'
import { addDays, type BoardJob } from './board-model'
import { JOB_STATUSES, STATUS_LOOK } from './status'

export type Depot = Schema<'Location'>

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
    <Field label="Depot">
      {(control) => (
        <select
          {...control}
          className="select"
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">{allLabel}</option>
          {depots.map((depot) => (
            <option key={depot.id} value={depot.id}>
              {depot.name}
              {depot.isActive ? '' : ' (inactive)'}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

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
      <Field label="Status">
        {(control) => (
          <select
            {...control}
            className="select"
            value={status ?? ''}
            onChange={(e) => onChange({ status: e.target.value })}
          >
            <option value="">Any status</option>
            {JOB_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LOOK[s].label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Priority">
        {(control) => (
          <select
            {...control}
            className="select"
            value={priority ?? ''}
            onChange={(e) => onChange({ priority: e.target.value })}
          >
            <option value="">Any priority</option>
            <option value="HIGH">High</option>
            <option value="NORMAL">Normal</option>
            <option value="LOW">Low</option>
          </select>
        )}
      </Field>
      <Field label="Tag">
        {(control) => (
          <select
            {...control}
            className="select"
            value={tag ?? ''}
            onChange={(e) => onChange({ tag: e.target.value })}
          >
            <option value="">Any tag</option>
            {[...tags].map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
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
