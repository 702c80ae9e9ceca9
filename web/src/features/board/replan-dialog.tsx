// Re-plan rest of day from the board: how much may change (the plan page's words), then a
// REPLAN_REMAINING plan of the shown day and depot runs (progress, Cancel), then what it would change
// (the plan page's PlanChanges), then Apply. A plan made stale by an edit meanwhile (409 PLAN_STALE,
// or the plan's own STALE status) applies nothing and offers to plan again with the same choices.
import { useState } from 'react'
import { ApiError, errorMessage } from '../../api/errors'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormError, serverErrors } from '../../ui/form'
import { LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { BalanceField, StabilityField, TimeLimitField } from '../plan/plan-fields'
import { PlanChanges } from '../plan/plan-preview'
import { PlanProgress } from '../plan/plan-progress'
import '../plan/plan.css'
import {
  isRunning,
  useApplyRoutePlan,
  useCancelRoutePlan,
  useCreateRoutePlan,
  useRoutePlan,
} from '../plan/queries'
import { MODES, type PlanBalance, REASONS } from '../plan/wording'
import { longDate } from './board-views'

const REPLAN_HINT = MODES.find((mode) => mode.value === 'REPLAN_REMAINING')?.hint

export function ReplanDialog({
  date,
  locationId,
  timeZone,
  onClose,
}: {
  date: string
  locationId: string | undefined
  timeZone: string
  onClose: () => void
}) {
  const [stability, setStability] = useState(0.5)
  const [balance, setBalance] = useState<PlanBalance>('NONE')
  const [timeLimit, setTimeLimit] = useState(5)
  const [planId, setPlanId] = useState<string | undefined>()
  const create = useCreateRoutePlan()
  const plan = useRoutePlan(planId)
  const cancel = useCancelRoutePlan()
  const apply = useApplyRoutePlan()
  const toast = useToast()

  const run = () => {
    apply.reset()
    create.mutate(
      {
        date,
        mode: 'REPLAN_REMAINING',
        stability,
        balance,
        timeLimitSeconds: timeLimit,
        ...(locationId ? { locationId } : {}),
      },
      { onSuccess: (created) => setPlanId(created.id) },
    )
  }
  const current = planId ? plan.data : undefined
  const stale =
    current?.status === 'STALE' || (apply.error instanceof ApiError && apply.error.code === 'PLAN_STALE')
  const changes = current?.result?.changes ?? []
  const planAgain = (
    <Button onClick={run} pending={create.isPending}>
      Plan again
    </Button>
  )
  const discard = () => {
    // A finished plan nobody applies is discarded, so it does not linger as "Ready to apply".
    if (current && (current.status === 'DONE' || isRunning(current.status))) cancel.mutate(current.id)
    onClose()
  }

  if (!planId) {
    const errors = serverErrors(create.error, ['stability', 'balance', 'timeLimitSeconds'])
    return (
      <Dialog
        title="Re-plan rest of day"
        description={`${longDate(date)}. ${REPLAN_HINT ?? ''}`}
        onClose={onClose}
        onSubmit={run}
        footer={
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" pending={create.isPending}>
              Re-plan
            </Button>
          </>
        }
      >
        <div className="stack">
          <FormError message={errors.form} />
          <StabilityField value={stability} onChange={setStability} error={errors.fields.stability} />
          <BalanceField value={balance} onChange={setBalance} error={errors.fields.balance} />
          <TimeLimitField
            value={timeLimit}
            onChange={setTimeLimit}
            error={errors.fields.timeLimitSeconds}
            maxSeconds={60}
          />
        </div>
      </Dialog>
    )
  }

  const ready = current?.status === 'DONE' && !stale
  return (
    <Dialog
      title="Re-plan rest of day"
      description={longDate(date)}
      onClose={discard}
      wide
      footer={
        <>
          <Button onClick={discard} pending={cancel.isPending}>
            {ready ? 'Discard' : 'Close'}
          </Button>
          {ready && (
            <Button
              variant="primary"
              pending={apply.isPending}
              onClick={() =>
                apply.mutate(current.id, {
                  onSuccess: () => {
                    toast.success(
                      `Rest of day re-planned: ${changes.length} ${changes.length === 1 ? 'change' : 'changes'} applied`,
                    )
                    onClose()
                  },
                })
              }
            >
              Apply changes
            </Button>
          )}
        </>
      }
    >
      <div className="stack">
        {plan.error ? (
          <Banner tone="danger">{errorMessage(plan.error)}</Banner>
        ) : !current ? (
          <LoadingState label="Starting the optimiser…" />
        ) : isRunning(current.status) ? (
          <PlanProgress
            plan={current}
            cancelling={cancel.isPending}
            onCancel={() => cancel.mutate(current.id)}
          />
        ) : null}
        {current?.status === 'FAILED' && (
          <Banner tone="danger" title="The optimiser could not make a plan">
            <div className="stack">
              <span>{current.error ?? 'It stopped with an error.'}</span>
              <div>{planAgain}</div>
            </div>
          </Banner>
        )}
        {current?.status === 'CANCELLED' && (
          <Banner tone="info" title="This plan was discarded">
            <div className="row">
              <span>Nothing on the board changed.</span>
              {planAgain}
            </div>
          </Banner>
        )}
        {stale && (
          <Banner tone="warning" title="Nothing was applied: the day changed after this plan was made">
            <div className="stack">
              <span>
                A job, shift, van or worker it used was edited since (or a job was started, finished or
                assigned by hand). Plan again to re-plan the day as it is now.
              </span>
              <div>{planAgain}</div>
            </div>
          </Banner>
        )}
        {apply.error && !stale ? <Banner tone="danger">{errorMessage(apply.error)}</Banner> : null}
        {create.error ? <Banner tone="danger">{errorMessage(create.error)}</Banner> : null}
        {current?.result && (current.status === 'DONE' || stale) && (
          <>
            <PlanChanges changes={changes} timeZone={timeZone} />
            {current.result.unassigned.length > 0 && (
              <section aria-labelledby="replan-not-planned">
                <h3 id="replan-not-planned">Not placed by this plan ({current.result.unassigned.length})</h3>
                <ul className="plan-unassigned">
                  {current.result.unassigned.map((job) => (
                    <li key={job.jobId}>
                      <strong>{job.title}</strong> — {REASONS[job.reason]}
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </>
        )}
      </div>
    </Dialog>
  )
}
