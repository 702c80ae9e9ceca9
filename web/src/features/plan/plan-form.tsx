// What to plan: the day and depot (in the URL, shared with the board), how (mode) and for how long
// the optimiser may search.
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Field, FormError, serverErrors } from '../../ui/form'
import type { Depot } from '../board/board-toolbar'
import { DepotSelect } from '../board/board-toolbar'
import type { PlanRequest } from './queries'
import { modesFor, STABILITIES, TIME_LIMITS } from './wording'

export function PlanForm({
  date,
  isToday,
  locationId,
  depots,
  pending,
  error,
  onChange,
  onRun,
}: {
  date: string
  /** Whether `date` is today in the depot's zone: only then can the rest of the day be re-planned. */
  isToday: boolean
  locationId: string | undefined
  depots: Depot[]
  pending: boolean
  error: unknown
  onChange: (changes: { date?: string; location?: string }) => void
  onRun: (request: PlanRequest) => void
}) {
  const [mode, setMode] = useState<PlanRequest['mode']>('KEEP_ASSIGNED')
  const [timeLimit, setTimeLimit] = useState(10)
  const [stability, setStability] = useState(0.5)
  const modes = modesFor(isToday)
  // A mode no longer offered (another date chosen) falls back to the first.
  const chosen = modes.some((option) => option.value === mode) ? mode : 'KEEP_ASSIGNED'
  const errors = serverErrors(error, ['date', 'locationId', 'mode', 'timeLimitSeconds', 'stability', 'at'])
  return (
    <form
      className="card plan-form"
      aria-label="Plan a day"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        onRun({
          date,
          mode: chosen,
          timeLimitSeconds: timeLimit,
          stability,
          ...(locationId ? { locationId } : {}),
        })
      }}
    >
      <div className="card-body">
        <FormError message={errors.form} />
        <div className="plan-form-grid">
          <Field label="Date" error={errors.fields.date}>
            {(control) => (
              <input
                {...control}
                className="input"
                type="date"
                required
                value={date}
                onChange={(e) => e.target.value && onChange({ date: e.target.value })}
              />
            )}
          </Field>
          <DepotSelect
            depots={depots}
            value={locationId}
            onChange={(next) => onChange({ location: next })}
            allLabel="Every depot"
          />
          <Field
            label="Time limit"
            error={errors.fields.timeLimitSeconds}
            hint="Longer searches find better plans"
          >
            {(control) => (
              <select
                {...control}
                className="select"
                value={timeLimit}
                onChange={(e) => setTimeLimit(Number(e.target.value))}
              >
                {TIME_LIMITS.map((limit) => (
                  <option key={limit.seconds} value={limit.seconds}>
                    {limit.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Changes to the day"
            error={errors.fields.stability}
            hint="How much moving jobs between workers costs the plan"
          >
            {(control) => (
              <select
                {...control}
                className="select"
                value={stability}
                onChange={(e) => setStability(Number(e.target.value))}
              >
                {STABILITIES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <fieldset className="choice-group">
          <legend className="field-label">Jobs already assigned</legend>
          {modes.map((option) => (
            <label className="choice" key={option.value}>
              <input
                type="radio"
                name="mode"
                value={option.value}
                checked={chosen === option.value}
                onChange={() => setMode(option.value)}
              />
              <span>
                {option.label}
                <span className="choice-hint">{option.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="row">
          <Button type="submit" variant="primary" pending={pending}>
            Run the optimiser
          </Button>
        </div>
      </div>
    </form>
  )
}
