// A route plan while the optimiser works on it: queued, then reading the day, building a first plan
// and searching, with the seconds used of its limit and Cancel. On the plan page and in the board's
// Re-plan rest of day.
import { Button } from '../../ui/button'
import type { RoutePlan } from './queries'

/** The optimiser at work: how far it got, and Cancel (also in the board's Re-plan rest of day). */
export function PlanProgress({
  plan,
  cancelling,
  onCancel,
}: {
  plan: RoutePlan
  cancelling: boolean
  onCancel: () => void
}) {
  const elapsed = plan.progress?.elapsedSeconds ?? 0
  const limit = plan.timeLimitSeconds
  const seconds = `${Math.min(limit, Math.round(elapsed))} of ${limit} s`
  const phase = plan.progress?.phase
  const text =
    plan.status === 'QUEUED'
      ? 'Waiting for the optimiser to start…'
      : phase === 'LOADING' || phase === undefined
        ? `Reading the day: ${seconds}`
        : phase === 'BUILDING'
          ? `Building a first plan: ${seconds} · ${plan.progress?.assignedJobs ?? 0} jobs placed so far`
          : `Searching: ${seconds} · ${plan.progress?.assignedJobs ?? 0} jobs placed so far`
  return (
    <div className="plan-progress">
      <label className="field-label" htmlFor={`progress-${plan.id}`}>
        Optimising
      </label>
      <progress
        id={`progress-${plan.id}`}
        max={limit}
        value={plan.status === 'QUEUED' ? undefined : Math.min(elapsed, limit)}
      />
      <div className="row">
        <span className="muted" aria-live="polite">
          {text}
        </span>
        <Button size="sm" onClick={onCancel} pending={cancelling}>
          Cancel
        </Button>
      </div>
    </div>
  )
}
