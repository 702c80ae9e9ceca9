// The choices a plan is made with, worded once for the plan page and the board's Re-plan rest of
// day: how long the optimiser searches, how much of the day as it is the plan keeps, and how evenly
// it spreads the work.
import { Field } from '../../ui/form'
import { BALANCES, type PlanBalance, STABILITIES, TIME_LIMITS } from './wording'

export function TimeLimitField({
  value,
  onChange,
  error,
  maxSeconds = Number.POSITIVE_INFINITY,
}: {
  value: number
  onChange: (seconds: number) => void
  error?: string | undefined
  maxSeconds?: number
}) {
  return (
    <Field label="Time limit" error={error} hint="Longer searches find better plans">
      {(control) => (
        <select
          {...control}
          className="select"
          value={value}
          onChange={(e) => onChange(Number(e.target.value))}
        >
          {TIME_LIMITS.filter((limit) => limit.seconds <= maxSeconds).map((limit) => (
            <option key={limit.seconds} value={limit.seconds}>
              {limit.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

export function StabilityField({
  value,
  onChange,
  error,
}: {
  value: number
  onChange: (stability: number) => void
  error?: string | undefined
}) {
  return (
    <Field
      label="Changes to the day"
      error={error}
      hint="How much moving jobs between workers costs the plan"
    >
      {(control) => (
        <select
          {...control}
          className="select"
          value={value}
          onChange={(e) => onChange(Number(e.target.value))}
        >
          {STABILITIES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

export function BalanceField({
  value,
  onChange,
  error,
}: {
  value: PlanBalance
  onChange: (balance: PlanBalance) => void
  error?: string | undefined
}) {
  return (
    <Field label="Spread the work" error={error} hint="The cheapest plan may leave some workers idle">
      {(control) => (
        <select
          {...control}
          className="select"
          value={value}
          onChange={(e) => onChange(e.target.value as PlanBalance)}
        >
          {BALANCES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
