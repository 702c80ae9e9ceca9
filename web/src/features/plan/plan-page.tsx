// Plan the day: choose a day, a depot, a mode and a time limit; the route optimiser runs (a progress
// bar, Cancel); the finished plan is previewed on the timeline and the map beside the board as it
// is, with its totals and the jobs it could not place; then Apply or Discard. Recent plans below.

import { ApiError, errorMessage } from '../../api/errors'
import { useDepots, useTimeZone } from '../../app/time-zone'
import { useListParams } from '../../lib/search-params'
import { todayIn } from '../../lib/time'
import { Badge } from '../../ui/badge'
import { Banner } from '../../ui/banner'
import { Button, ButtonLink } from '../../ui/button'
import { PageHeader } from '../../ui/page-header'
import { ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import {
  type RoutePlan,
  useApplyRoutePlan,
  useCancelRoutePlan,
  useCreateRoutePlan,
  useRoutePlan,
} from './queries'
import '../board/board.css'
import { longDate } from '../board/board-views'
import { mondayOf } from '../board/week/week-model'
import './plan.css'
import { PlanForm } from './plan-form'
import { PlanPreview } from './plan-preview'
import { PlanProgress } from './plan-progress'
import { RecentPlans } from './recent-plans'
import { appliedWords, PLAN_STATUS } from './wording'

export function PlanPage() {
  const params = useListParams()
  const depots = useDepots()
  const organisationZone = useTimeZone()
  const locationId = params.get('location')
  const depot = depots.data?.locations.find((d) => d.id === locationId)
  const today = todayIn(depot?.timezone ?? organisationZone)
  const date = params.get('date') ?? today
  const planId = params.get('plan')
  const plan = useRoutePlan(planId)
  const create = useCreateRoutePlan()
  const set = (changes: Record<string, string | undefined>) => params.set(changes, { keepPage: true })

  const run = (request: Parameters<typeof create.mutate>[0]) =>
    create.mutate(request, { onSuccess: (created) => set({ plan: created.id }) })
  const runAgain = (previous: RoutePlan) =>
    run({
      ...(previous.dateTo ? { dateFrom: previous.date, dateTo: previous.dateTo } : { date: previous.date }),
      mode: previous.mode,
      timeLimitSeconds: previous.timeLimitSeconds,
      stability: previous.stability,
      balance: previous.balance,
      ...(previous.locationId ? { locationId: previous.locationId } : {}),
    })

  return (
    <div className="page page-board">
      <PageHeader
        title="Plan the day"
        description="The route optimiser places the day’s jobs on its shifts — inside their time windows, around breaks, with the vans’ capacities and skills. Look at the plan, then apply it or discard it."
        actions={
          <ButtonLink to={`/?date=${date}${locationId ? `&location=${locationId}` : ''}`}>
            Open the board
          </ButtonLink>
        }
      />
      <PlanForm
        date={date}
        isToday={date === today}
        locationId={locationId}
        depots={depots.data?.locations ?? []}
        pending={create.isPending}
        error={create.error}
        onChange={(changes) => set(changes)}
        onRun={run}
      />
      {planId &&
        (plan.isPending ? (
          <LoadingState label="Loading the plan…" />
        ) : plan.error ? (
          <ErrorState
            error={plan.error}
            title={plan.error instanceof ApiError && plan.error.status === 404 ? 'No such plan' : undefined}
          />
        ) : plan.data ? (
          <PlanPanel
            key={plan.data.id}
            plan={plan.data}
            onRunAgain={() => runAgain(plan.data)}
            running={create.isPending}
          />
        ) : null)}
      <RecentPlans
        depots={depots.data?.locations ?? []}
        selected={planId}
        onOpen={(id) => set({ plan: id })}
      />
    </div>
  )
}

function PlanPanel({
  plan,
  onRunAgain,
  running,
}: {
  plan: RoutePlan
  onRunAgain: () => void
  running: boolean
}) {
  const cancel = useCancelRoutePlan()
  const apply = useApplyRoutePlan()
  const toast = useToast()
  const status = PLAN_STATUS[plan.status]
  const stale = apply.error instanceof ApiError && apply.error.code === 'PLAN_STALE'
  const heading = plan.dateTo
    ? `Plan for ${longDate(plan.date)} to ${longDate(plan.dateTo)}`
    : `Plan for ${longDate(plan.date)}`
  const runAgain = (
    <Button onClick={onRunAgain} pending={running}>
      Run again
    </Button>
  )
  return (
    <section className="card" aria-label="The plan">
      <div className="card-body">
        <header className="section-header">
          <h2>{heading}</h2>
          <Badge tone={status.tone}>{status.label}</Badge>
        </header>
        {(plan.status === 'QUEUED' || plan.status === 'RUNNING') && (
          <PlanProgress plan={plan} cancelling={cancel.isPending} onCancel={() => cancel.mutate(plan.id)} />
        )}
        {plan.status === 'FAILED' && (
          <Banner tone="danger" title="The optimiser could not make a plan">
            <div className="stack">
              <span>{plan.error ?? 'It stopped with an error.'}</span>
              <div>{runAgain}</div>
            </div>
          </Banner>
        )}
        {(plan.status === 'STALE' || stale) && (
          <Banner tone="warning" title="Nothing was applied: the day changed after this plan was made">
            <div className="stack">
              <span>
                A job, shift, van, worker, customer or depot it used was edited since (or a job was assigned
                by hand). Run the optimiser again to plan with the day as it is now.
              </span>
              <div>{runAgain}</div>
            </div>
          </Banner>
        )}
        {plan.status === 'CANCELLED' && (
          <Banner tone="info" title="This plan was discarded">
            <div className="row">
              <span>Nothing on the board changed.</span>
              {runAgain}
            </div>
          </Banner>
        )}
        {plan.status === 'APPLIED' && (
          <Banner tone="info" title="Applied">
            <div className="row">
              <span>
                {plan.dateTo
                  ? `${appliedWords(plan)}. The board shows them with their workers, day by day.`
                  : `${plan.result?.totals.assignedJobs ?? 0} jobs were assigned. The board shows them with their workers.`}
              </span>
              <ButtonLink
                size="sm"
                to={`/?date=${plan.date}${plan.locationId ? `&location=${plan.locationId}` : ''}`}
              >
                Open the board
              </ButtonLink>
              {plan.dateTo && (
                <ButtonLink
                  size="sm"
                  to={`/board/week?start=${mondayOf(plan.date)}${plan.locationId ? `&location=${plan.locationId}` : ''}`}
                >
                  Open the week
                </ButtonLink>
              )}
            </div>
          </Banner>
        )}
        {plan.status === 'DONE' && (
          <div className="row">
            <Button
              variant="primary"
              pending={apply.isPending}
              onClick={() =>
                apply.mutate(plan.id, {
                  onSuccess: (applied) =>
                    toast.success(
                      applied.dateTo
                        ? `Plan applied: ${appliedWords(applied)}`
                        : `Plan applied: ${applied.result?.totals.assignedJobs ?? 0} jobs assigned`,
                    ),
                })
              }
            >
              Apply plan
            </Button>
            <Button pending={cancel.isPending} onClick={() => cancel.mutate(plan.id)}>
              Discard
            </Button>
          </div>
        )}
        {apply.error && !stale ? <Banner tone="danger">{errorMessage(apply.error)}</Banner> : null}
        {cancel.error ? <Banner tone="danger">{errorMessage(cancel.error)}</Banner> : null}
        {plan.result && (plan.status === 'DONE' || plan.status === 'APPLIED' || plan.status === 'STALE') && (
          <PlanPreview plan={plan} result={plan.result} />
        )}
      </div>
    </section>
  )
}
