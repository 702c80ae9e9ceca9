// The rule of a series as a dispatcher sets it — no RRULE text: Repeats (daily, weekly, monthly,
// yearly), every N of them, the days (weekday boxes; "on day 14" or "on the 2nd Tuesday"; a date
// of the year), when it ends (never, on a date, after N times), the start date and the window (any
// time that day, or from–to that must be kept or is preferred). Under it, the rule in words and its
// next 4 dates in the depot's calendar, as the series will make them.
import { useId } from 'react'
import { Field } from '../../ui/form'
import { RadioChoices } from '../../ui/form-fields'
import { WINDOW_TYPES } from '../jobs/job-labels'
import {
  type Ends,
  FREQUENCIES,
  type Frequency,
  MONTHS,
  ORDINALS,
  type Ordinal,
  type RuleModel,
  seriesWords,
  shortDate,
  WEEKDAYS,
  type Weekday,
  type WindowModel,
} from './rule'

/** The window as the editor holds it: its times are typed even while "any time" is chosen. */
export interface WindowChoice {
  anyTime: boolean
  startTime: string
  endTime: string
  type: 'HARD' | 'SOFT'
}

export const windowOf = (choice: WindowChoice): WindowModel | null =>
  choice.anyTime ? null : { startTime: choice.startTime, endTime: choice.endTime, type: choice.type }

/** Problems of the window, by field ('windowTimes'). */
export function windowProblems(choice: WindowChoice): Record<string, string> {
  if (choice.anyTime) return {}
  if (!/^\d{2}:\d{2}$/.test(choice.startTime) || !/^\d{2}:\d{2}$/.test(choice.endTime)) {
    return { windowTimes: 'Give both times, or choose any time that day' }
  }
  if (choice.endTime <= choice.startTime) return { windowTimes: 'The window must end after it starts' }
  return {}
}

export function RuleEditor({
  rule,
  onRule,
  startDate,
  onStartDate,
  startHint,
  window,
  onWindow,
  errors,
  preview,
  timeZone,
}: {
  rule: RuleModel
  onRule: (rule: RuleModel) => void
  startDate: string
  onStartDate: (date: string) => void
  startHint?: string
  window: WindowChoice
  onWindow: (window: WindowChoice) => void
  /** Messages by field: interval, weekdays, monthDay, until, count, startDate, windowTimes, rule. */
  errors: Record<string, string | undefined>
  /** The next dates the series will have (computed by the caller: it knows from when). */
  preview: string[]
  timeZone: string
}) {
  const id = useId()
  const set = <K extends keyof RuleModel>(field: K, value: RuleModel[K]) =>
    onRule({ ...rule, [field]: value })
  const frequency = FREQUENCIES.find((f) => f.value === rule.frequency) ?? FREQUENCIES[0]!
  const toggleDay = (day: Weekday, on: boolean) =>
    set('weekdays', on ? [...rule.weekdays, day] : rule.weekdays.filter((d) => d !== day))
  // Going to a time field means a window of times, even when its times are kept as they are.
  const chooseTimes = () => {
    if (window.anyTime) onWindow({ ...window, anyTime: false })
  }
  const invalid = (field: string) => (errors[field] ? true : undefined)
  const described = (field: string) => (errors[field] ? `${id}-${field}-error` : undefined)
  const error = (field: string) =>
    errors[field] ? (
      <span className="field-error" id={`${id}-${field}-error`}>
        {errors[field]}
      </span>
    ) : null

  return (
    <div className="rule-editor">
      <fieldset className="choice-group">
        <legend className="field-label">Repeats</legend>
        <div className="segmented">
          {FREQUENCIES.map((f) => (
            <label key={f.value}>
              <input
                type="radio"
                name={`${id}-frequency`}
                checked={rule.frequency === f.value}
                onChange={() => set('frequency', f.value as Frequency)}
              />
              {f.label}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="field">
        <label className="field-label" htmlFor={`${id}-interval`}>
          Every
        </label>
        <span className="row rule-inline">
          <input
            id={`${id}-interval`}
            className="input rule-number"
            inputMode="numeric"
            value={rule.interval}
            aria-invalid={invalid('interval')}
            aria-describedby={described('interval')}
            onChange={(e) => set('interval', e.target.value)}
          />
          <span>{Number(rule.interval) === 1 ? frequency.unit : frequency.units}</span>
        </span>
        {error('interval')}
      </div>

      {rule.frequency === 'WEEKLY' && (
        <fieldset className="choice-group" aria-invalid={invalid('weekdays')}>
          <legend className="field-label">On</legend>
          <div className="segmented">
            {WEEKDAYS.map((d) => (
              <label key={d.value}>
                <input
                  type="checkbox"
                  aria-label={d.label}
                  checked={rule.weekdays.includes(d.value)}
                  onChange={(e) => toggleDay(d.value, e.target.checked)}
                />
                <span aria-hidden="true">{d.short}</span>
              </label>
            ))}
          </div>
          {error('weekdays')}
        </fieldset>
      )}

      {rule.frequency === 'MONTHLY' && (
        <fieldset className="choice-group">
          <legend className="field-label">On</legend>
          <label className="choice rule-choice">
            <input
              type="radio"
              name={`${id}-monthly`}
              checked={rule.monthlyBy === 'day'}
              onChange={() => set('monthlyBy', 'day')}
            />
            <span className="row rule-inline">
              on day
              <input
                className="input rule-number"
                inputMode="numeric"
                aria-label="Day of the month"
                value={rule.monthDay}
                aria-invalid={invalid('monthDay')}
                aria-describedby={described('monthDay')}
                onFocus={() => set('monthlyBy', 'day')}
                onChange={(e) => onRule({ ...rule, monthlyBy: 'day', monthDay: e.target.value })}
              />
            </span>
          </label>
          <label className="choice rule-choice">
            <input
              type="radio"
              name={`${id}-monthly`}
              checked={rule.monthlyBy === 'weekday'}
              onChange={() => set('monthlyBy', 'weekday')}
            />
            <span className="row rule-inline">
              on the
              <select
                className="select rule-select"
                aria-label="Which week of the month"
                value={rule.ordinal}
                onChange={(e) =>
                  onRule({ ...rule, monthlyBy: 'weekday', ordinal: Number(e.target.value) as Ordinal })
                }
              >
                {ORDINALS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
              <select
                className="select rule-select"
                aria-label="Day of the week"
                value={rule.ordinalWeekday}
                onChange={(e) =>
                  onRule({ ...rule, monthlyBy: 'weekday', ordinalWeekday: e.target.value as Weekday })
                }
              >
                {WEEKDAYS.map((d) => (
                  <option key={d.value} value={d.value}>
                    {d.label}
                  </option>
                ))}
              </select>
            </span>
          </label>
          {error('monthDay')}
          {rule.monthlyBy === 'day' && Number(rule.monthDay) > 28 && (
            <span className="field-hint">Months without day {rule.monthDay} are passed over.</span>
          )}
        </fieldset>
      )}

      {rule.frequency === 'YEARLY' && (
        <fieldset className="choice-group">
          <legend className="field-label">On</legend>
          <span className="row rule-inline">
            <input
              className="input rule-number"
              inputMode="numeric"
              aria-label="Day of the month"
              value={rule.monthDay}
              aria-invalid={invalid('monthDay')}
              aria-describedby={described('monthDay')}
              onChange={(e) => set('monthDay', e.target.value)}
            />
            <select
              className="select rule-select"
              aria-label="Month"
              value={rule.month}
              onChange={(e) => set('month', Number(e.target.value))}
            >
              {MONTHS.map((m, i) => (
                <option key={m} value={i + 1}>
                  {m}
                </option>
              ))}
            </select>
          </span>
          {error('monthDay')}
        </fieldset>
      )}

      <Field label="Start date" hint={startHint} error={errors.startDate}>
        {(control) => (
          <input
            {...control}
            type="date"
            className="input rule-date"
            value={startDate}
            onChange={(e) => onStartDate(e.target.value)}
          />
        )}
      </Field>

      <fieldset className="choice-group">
        <legend className="field-label">Ends</legend>
        <label className="choice rule-choice">
          <input
            type="radio"
            name={`${id}-ends`}
            checked={rule.ends === 'never'}
            onChange={() => set('ends', 'never' as Ends)}
          />
          <span>Never</span>
        </label>
        <label className="choice rule-choice">
          <input
            type="radio"
            name={`${id}-ends`}
            checked={rule.ends === 'on'}
            onChange={() => set('ends', 'on' as Ends)}
          />
          <span className="row rule-inline">
            on
            <input
              type="date"
              className="input rule-date"
              aria-label="Last date"
              value={rule.until}
              aria-invalid={invalid('until')}
              aria-describedby={described('until')}
              onChange={(e) => onRule({ ...rule, ends: 'on', until: e.target.value })}
            />
          </span>
        </label>
        <label className="choice rule-choice">
          <input
            type="radio"
            name={`${id}-ends`}
            checked={rule.ends === 'after'}
            onChange={() => set('ends', 'after' as Ends)}
          />
          <span className="row rule-inline">
            after
            <input
              className="input rule-number"
              inputMode="numeric"
              aria-label="Number of times"
              value={rule.count}
              aria-invalid={invalid('count')}
              aria-describedby={described('count')}
              onChange={(e) => onRule({ ...rule, ends: 'after', count: e.target.value })}
            />
            times
          </span>
        </label>
        {error('until')}
        {error('count')}
      </fieldset>

      <fieldset className="choice-group">
        <legend className="field-label">Window</legend>
        <label className="choice rule-choice">
          <input
            type="radio"
            name={`${id}-window`}
            checked={window.anyTime}
            onChange={() => onWindow({ ...window, anyTime: true })}
          />
          <span>
            Any time that day
            <span className="choice-hint">The visit belongs to that date, at any time of it</span>
          </span>
        </label>
        <label className="choice rule-choice">
          <input
            type="radio"
            name={`${id}-window`}
            checked={!window.anyTime}
            onChange={() => onWindow({ ...window, anyTime: false })}
          />
          <span className="row rule-inline">
            from
            <input
              type="time"
              className="input rule-time"
              aria-label="Window from"
              value={window.startTime}
              aria-invalid={invalid('windowTimes')}
              aria-describedby={described('windowTimes')}
              onFocus={chooseTimes}
              onChange={(e) => onWindow({ ...window, anyTime: false, startTime: e.target.value })}
            />
            to
            <input
              type="time"
              className="input rule-time"
              aria-label="Window to"
              value={window.endTime}
              aria-invalid={invalid('windowTimes')}
              aria-describedby={described('windowTimes')}
              onFocus={chooseTimes}
              onChange={(e) => onWindow({ ...window, anyTime: false, endTime: e.target.value })}
            />
          </span>
        </label>
        {error('windowTimes')}
        {!window.anyTime && (
          <RadioChoices
            legend="This window"
            name={`${id}-window-type`}
            className="choice-group rule-window-type"
            value={window.type}
            options={[...WINDOW_TYPES]
              .reverse()
              .map((w) => ({ value: w.value, label: w.label, hint: w.hint }))}
            onChange={(type) => onWindow({ ...window, type })}
          />
        )}
      </fieldset>

      <section className="rule-summary" aria-live="polite" aria-label="The series in words">
        <p className="rule-words">{seriesWords(rule, windowOf(window))}</p>
        {errors.rule && <span className="field-error">{errors.rule}</span>}
        {preview.length > 0 ? (
          <>
            <p className="muted">Next dates ({timeZone}):</p>
            <ol className="rule-dates" aria-label="Next dates">
              {preview.map((date) => (
                <li key={date}>{shortDate(date)}</li>
              ))}
            </ol>
          </>
        ) : (
          <p className="muted">No dates yet: complete the rule above.</p>
        )}
      </section>
    </div>
  )
}
