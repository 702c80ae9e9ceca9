// A finished plan before it is applied: its totals and cost, the jobs it could not place and why,
// and its routes on the board's timeline and map — or, with the toggle, the day as it is now. A plan
// over several days shows its routes day by day, each day with its totals.
import { useMemo, useState } from 'react'
import { Banner } from '../../ui/banner'
import { ErrorState, LoadingState } from '../../ui/states'
import {
  type Board,
  type BoardJob,
  clock,
  type LatLng,
  positionOf,
  routePath,
  timelineRange,
} from '../board/board-model'
import { boardMapData, boardTimelineRows } from '../board/board-views'
import { useBoard } from '../board/queries'
import { StatusLegend } from '../board/status'
import { Timeline, type TimelineRow } from '../board/timeline'
import { dayNames } from '../board/week/week-model'
import { colourOf } from '../board/worker-colour'
import { MapPanel } from '../map/map-panel'
import { planTravelBars } from './plan-travel'
import type { PlanResult, RoutePlan } from './queries'
import { count, formatCost, formatNumber, REASONS } from './wording'

const ms = (iso: string) => Date.parse(iso)

function planTimelineRows(routes: PlanResult['routes'], board: Board, timeZone: string): TimelineRow[] {
  const customerOf = new Map(board.jobs.map((job) => [job.id, job.customer?.name]))
  return routes.map((route) => ({
    id: route.shiftId,
    label: route.user.name,
    sublabel: `${route.vehicle.name} · ${route.totals.jobs} jobs · ${formatNumber(route.totals.km)} km`,
    start: ms(route.start),
    end: ms(route.end),
    breaks: route.breaks.map((b) => ({ start: ms(b.start), end: ms(b.end), isPaid: b.isPaid })),
    colour: colourOf(route.user),
    travel: planTravelBars(route),
    blocks: route.stops.map((stop) => ({
      id: stop.jobId,
      title: stop.title,
      customer: customerOf.get(stop.jobId),
      start: ms(stop.serviceStart),
      end: ms(stop.serviceEnd),
      status: 'PLANNED' as const,
      draggable: false,
      description: `${stop.title}${stop.inProgress ? ' (in progress)' : ''}, planned ${clock(stop.serviceStart, timeZone)}–${clock(stop.serviceEnd, timeZone)}, ${formatNumber(stop.travelKm)} km from the previous stop`,
    })),
  }))
}

function planMapData(result: PlanResult, board: Board) {
  const jobs = new Map(board.jobs.map((job) => [job.id, job]))
  const rows = new Map(board.rows.map((row) => [row.shiftId, row]))
  const depots = new Map(board.depots.map((d) => [d.id, d]))
  const located = (id: string, title: string, status: 'PLANNED' | 'CREATED') => {
    const job = jobs.get(id)
    const position = job ? positionOf(job) : null
    return position ? [{ id, title, status, position }] : []
  }
  return {
    depots: boardMapData(board, []).depots,
    jobs: [
      ...result.routes.flatMap((route) =>
        route.stops.flatMap((stop) => located(stop.jobId, stop.title, 'PLANNED')),
      ),
      ...result.unassigned.flatMap((job) => located(job.jobId, job.title, 'CREATED')),
    ],
    routes: result.routes.flatMap((route) => {
      const current = rows.get(route.shiftId)
      const depot = depots.get(route.locationId)
      const origin = current?.origin ?? depot
      if (!origin) return []
      const stops = route.stops
        .map((stop) => jobs.get(stop.jobId))
        .filter((j): j is BoardJob => j !== undefined)
      const path: LatLng[] = routePath(origin, stops, current?.endPolicy !== 'END_AT_LAST_JOB')
      return [
        {
          id: route.shiftId,
          label: `${route.user.name} · ${route.vehicle.name}`,
          colour: colourOf(route.user),
          path,
        },
      ]
    }),
  }
}

export function PlanTotals({ result }: { result: PlanResult }) {
  const { totals, cost } = result
  return (
    <dl className="plan-totals" aria-label="Plan totals">
      <div>
        <dt>Jobs planned</dt>
        <dd>{totals.assignedJobs}</dd>
      </div>
      <div>
        <dt>Not planned</dt>
        <dd>{totals.unassignedJobs}</dd>
      </div>
      <div>
        <dt>Routes</dt>
        <dd>{totals.routesUsed}</dd>
      </div>
      <div>
        <dt>Distance</dt>
        <dd>{formatNumber(totals.km)} km</dd>
      </div>
      <div>
        <dt>Working time</dt>
        <dd>{formatNumber(totals.hours)} h</dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd>
          {formatCost(cost.total)}
          <span className="plan-cost-parts">
            vans {formatCost(cost.fixed)} · distance {formatCost(cost.distance)} · time{' '}
            {formatCost(cost.time)}
            {cost.lateness > 0 ? ` · lateness ${formatCost(cost.lateness)}` : ''}
          </span>
        </dd>
      </div>
    </dl>
  )
}

type Change = NonNullable<PlanResult['changes']>[number]

/** One end of a change: the worker and time, or where a job is when it has none. */
function changeEnd(end: Change['from'], timeZone: string, none: string, withDay: boolean): string {
  if (!end) return none
  if (!end.start) return end.user.name
  // Over several days the time alone is ambiguous: "Ana Lopez Wed 09:30".
  const day = withDay
    ? `${new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short' }).format(new Date(end.start))} `
    : ''
  return `${end.user.name} ${day}${clock(end.start, timeZone)}`
}

/** What applying the plan changes, job by job: from → to worker, old → new time. */
export function PlanChanges({
  changes,
  timeZone,
  withDay = false,
}: {
  changes: Change[]
  timeZone: string
  /** A plan over several days: each time says its day. */
  withDay?: boolean
}) {
  const counts = [
    [changes.filter((c) => c.from === null).length, 'newly planned'],
    [changes.filter((c) => c.from !== null && c.to !== null && c.movedWorker).length, 'to another worker'],
    [changes.filter((c) => c.to === null).length, 'back to waiting'],
  ] as const
  const summary = counts.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`)
  return (
    <section className="card" aria-labelledby="changes-heading">
      <div className="card-body">
        <h2 id="changes-heading">
          Changes ({changes.length}
          {summary.length > 0 ? `: ${summary.join(', ')}` : ''})
        </h2>
        {changes.length === 0 ? (
          <p className="muted">Applying this plan changes nothing on the board.</p>
        ) : (
          <ul className="plan-changes" aria-label="What the plan changes">
            {changes.map((change) => (
              <li key={change.jobId}>
                <strong>{change.title}</strong>: {changeEnd(change.from, timeZone, 'waiting', withDay)} →{' '}
                {changeEnd(change.to, timeZone, 'back to waiting', withDay)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  )
}

/** What a plan could not place, and why. */
function NotPlanned({ result }: { result: PlanResult }) {
  if (result.unassigned.length === 0) return null
  return (
    <section className="card" aria-labelledby="not-planned-heading">
      <div className="card-body">
        <h2 id="not-planned-heading">Not planned ({result.unassigned.length})</h2>
        <ul className="plan-unassigned">
          {result.unassigned.map((job) => (
            <li key={job.jobId}>
              <strong>{job.title}</strong> — {REASONS[job.reason]}
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}

type PlanDay = NonNullable<PlanResult['days']>[number]

/** One day of a plan over several days: its totals and its routes on the timeline. */
function PlanDaySection({ plan, result, day }: { plan: RoutePlan; result: PlanResult; day: PlanDay }) {
  const board = useBoard(day.date, plan.locationId ?? undefined)
  const data = board.data?.date === day.date ? board.data : undefined
  const timeZone = data?.timezone ?? 'UTC'
  const title = dayNames(day.date).long
  const headingId = `plan-day-${day.date}`
  const shown = useMemo(() => {
    if (!data) return null
    const routes = result.routes.filter((route) => (route.date ?? plan.date) === day.date)
    const rows = planTimelineRows(routes, data, timeZone)
    const spans = [...rows.map((r) => ({ start: r.start, end: r.end })), ...rows.flatMap((r) => r.blocks)]
    return { rows, range: timelineRange(data.dayStart, data.dayEnd, spans) }
  }, [data, result, plan.date, day.date, timeZone])
  const idle = data && data.rows.length === 0 ? 'No shifts' : 'No work planned'
  return (
    <section className="plan-day" aria-labelledby={headingId}>
      <header className="plan-day-header">
        <h3 id={headingId}>{title}</h3>
        {day.routesUsed > 0 ? (
          <dl className="plan-day-totals" aria-label={`Totals for ${title}`}>
            <div>
              <dt>Jobs</dt>
              <dd>{day.assignedJobs}</dd>
            </div>
            <div>
              <dt>Routes</dt>
              <dd>{day.routesUsed}</dd>
            </div>
            <div>
              <dt>Distance</dt>
              <dd>{formatNumber(day.km)} km</dd>
            </div>
            <div>
              <dt>Working time</dt>
              <dd>{formatNumber(day.hours)} h</dd>
            </div>
          </dl>
        ) : (
          <p className="muted">{board.isPending ? 'No routes' : idle}</p>
        )}
      </header>
      {day.routesUsed > 0 &&
        (board.isPending ? (
          <LoadingState label="Loading the day…" />
        ) : !shown ? (
          <ErrorState error={board.error} onRetry={() => board.refetch()} />
        ) : (
          <Timeline
            label={`Routes on ${title}`}
            rows={shown.rows}
            range={shown.range}
            timeZone={timeZone}
            empty={<p className="muted">No routes.</p>}
          />
        ))}
    </section>
  )
}

/** A plan over several days: its totals, then day by day. */
function PlanDaysPreview({ plan, result }: { plan: RoutePlan; result: PlanResult }) {
  const first = useBoard(plan.date, plan.locationId ?? undefined)
  const timeZone = first.data?.timezone ?? 'UTC'
  const days = result.days ?? []
  const working = days.filter((day) => day.assignedJobs > 0).length
  return (
    <div className="stack plan-preview">
      <PlanTotals result={result} />
      {result.travel?.warnings.map((warning) => (
        <Banner key={warning.code} tone="warning">
          {warning.message}
        </Banner>
      ))}
      {result.changes && <PlanChanges changes={result.changes} timeZone={timeZone} withDay />}
      <NotPlanned result={result} />
      <section className="card" aria-labelledby="plan-days-heading">
        <div className="card-body stack">
          <header className="section-header">
            <h2 id="plan-days-heading">Day by day</h2>
            <span className="muted">
              {count(result.totals.assignedJobs, 'job')} on {count(working, 'day')} of {days.length}
            </span>
          </header>
          <StatusLegend statuses={['PLANNED']} />
          {days.map((day) => (
            <PlanDaySection key={day.date} plan={plan} result={result} day={day} />
          ))}
        </div>
      </section>
    </div>
  )
}

export function PlanPreview({ plan, result }: { plan: RoutePlan; result: PlanResult }) {
  if (plan.dateTo) return <PlanDaysPreview plan={plan} result={result} />
  return <PlanDayPreview plan={plan} result={result} />
}

function PlanDayPreview({ plan, result }: { plan: RoutePlan; result: PlanResult }) {
  const board = useBoard(plan.date, plan.locationId ?? undefined)
  const [view, setView] = useState<'plan' | 'current'>('plan')
  const data = board.data
  const timeZone = data?.timezone ?? 'UTC'
  const shown = useMemo(() => {
    if (!data) return null
    const rows =
      view === 'plan'
        ? planTimelineRows(result.routes, data, timeZone)
        : boardTimelineRows(data, data.jobs, timeZone)
    const map = view === 'plan' ? planMapData(result, data) : boardMapData(data, data.jobs)
    const spans = [...rows.map((r) => ({ start: r.start, end: r.end })), ...rows.flatMap((r) => r.blocks)]
    return { rows, map, range: timelineRange(data.dayStart, data.dayEnd, spans) }
  }, [data, result, view, timeZone])

  return (
    <div className="stack plan-preview">
      <PlanTotals result={result} />
      {/* Road times could not be had (or not for every trip): the dispatcher should know the times are estimates. */}
      {result.travel?.warnings.map((warning) => (
        <Banner key={warning.code} tone="warning">
          {warning.message}
        </Banner>
      ))}
      {result.changes && <PlanChanges changes={result.changes} timeZone={timeZone} />}
      <NotPlanned result={result} />
      <div className="board-legend">
        <fieldset className="choice-group">
          <legend className="visually-hidden">Show</legend>
          <div className="segmented">
            {(['plan', 'current'] as const).map((option) => (
              <label key={option}>
                <input
                  type="radio"
                  name="plan-view"
                  checked={view === option}
                  onChange={() => setView(option)}
                />
                {option === 'plan' ? 'This plan' : 'The board now'}
              </label>
            ))}
          </div>
        </fieldset>
        <StatusLegend statuses={view === 'plan' ? ['PLANNED', 'CREATED'] : undefined} />
      </div>
      {board.isPending ? (
        <LoadingState label="Loading the day…" />
      ) : !shown ? (
        <ErrorState error={board.error} onRetry={() => board.refetch()} />
      ) : (
        <>
          <Timeline
            label={view === 'plan' ? 'The plan’s routes' : 'The board now'}
            rows={shown.rows}
            range={shown.range}
            timeZone={timeZone}
            empty={<p className="muted">No routes.</p>}
          />
          <MapPanel
            label={view === 'plan' ? 'The plan on the map' : 'The board now on the map'}
            {...shown.map}
            fitKey={plan.id}
          />
        </>
      )}
    </div>
  )
}
