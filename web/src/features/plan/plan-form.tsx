// What to plan: the day and depot (in the URL, shared with the board) — or several days from it —,
// how (mode) and for how long the optimiser may search.
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Field, FormError, serverErrors } from '../../ui/form'
import { addDays } from '../board/board-model'
import type { Depot } from '../board/board-toolbar'
import { DepotSelect } from '../board/board-toolbar'
import { dayNames } from '../board/week/week-model'
import { BalanceField, StabilityField, TimeLimitField } from './plan-fields'
import type { PlanRequest } from './queries'
import { MAX_PLAN_DAYS, modesFor, type PlanBalance } from './wording'

/** The last day a plan from `date` may reach: `date` + 6 (7 days in all). */
const lastDayFrom = (date: string) => addDays(date, MAX_PLAN_DAYS - 1)

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
  const [balance, setBalance] = useState<PlanBalance>('NONE')
  const [severalDays, setSeveralDays] = useState(false)
  const [chosenTo, setTo] = useState('')
  // The end date stays within the 7 days from the first (a working week by default).
  const dateTo = chosenTo && chosenTo > date && chosenTo <= lastDayFrom(date) ? chosenTo : addDays(date, 4)
  // The rest of the day is re-planned only for today, alone.
  const modes = modesFor(isToday && !severalDays)
  // A mode no longer offered (another date chosen) falls back to the first.
  const chosen = modes.some((option) => option.value === mode) ? mode : 'KEEP_ASSIGNED'
  const errors = serverErrors(error, [
    'date',
    'dateFrom',
    'dateTo',
    'locationId',
    'mode',
    'timeLimitSeconds',
    'stability',
    'balance',
    'at',
  ])
  return (
    <form
      className="card plan-form"
      aria-label={severalDays ? 'Plan days' : 'Plan a day'}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        onRun({
          ...(severalDays ? { dateFrom: date, dateTo } : { date }),
          mode: chosen,
          timeLimitSeconds: timeLimit,
          stability,
          balance,
          ...(locationId ? { locationId } : {}),
        })
      }}
    >
      <div className="card-body">
        <FormError message={errors.form} />
        <fieldset className="choice-group">
          <legend className="field-label">Days</legend>
          <div className="segmented">
            {([false, true] as const).map((several) => (
              <label key={String(several)}>
                <input
                  type="radio"
                  name="plan-days"
                  checked={severalDays === several}
                  onChange={() => setSeveralDays(several)}
                />
                {several ? 'Several days' : 'This day'}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="plan-form-grid">
          <Field label={severalDays ? 'From' : 'Date'} error={errors.fields.date ?? errors.fields.dateFrom}>
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
          {severalDays && (
            <Field
              label="To"
              error={errors.fields.dateTo}
              hint={`${MAX_PLAN_DAYS} days at most: until ${dayNames(lastDayFrom(date)).short} at the latest`}
            >
              {(control) => (
                <input
                  {...control}
                  className="input"
                  type="date"
                  required
                  min={addDays(date, 1)}
                  max={lastDayFrom(date)}
                  value={dateTo}
                  onChange={(e) => e.target.value && setTo(e.target.value)}
                />
              )}
            </Field>
          )}
          <DepotSelect
            depots={depots}
            value={locationId}
            onChange={(next) => onChange({ location: next })}
            allLabel="Every depot"
          />
          <TimeLimitField value={timeLimit} onChange={setTimeLimit} error={errors.fields.timeLimitSeconds} />
          <StabilityField value={stability} onChange={setStability} error={errors.fields.stability} />
          <BalanceField value={balance} onChange={setBalance} error={errors.fields.balance} />
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
