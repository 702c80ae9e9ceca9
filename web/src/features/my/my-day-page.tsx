// My day: the signed-in worker's jobs on one date, in route order (the applied plan's visiting
// order), as cards, with a map of the stops and the route; the previous and next day a tap or a
// swipe away (?date= in the URL, so Back and reload keep the day).
import { lazy, Suspense, useEffect, useMemo, useRef } from 'react'
import { useSearchParams } from 'react-router'
import { BROWSER_TIME_ZONE, todayIn } from '../../lib/time'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { addDays, dayTitle, duration, parseDay } from './format'
import { JobCard } from './job-card'
import { OnMyWay } from './on-my-way'
import { applyPending, isCompletionPending, isDone, isRemaining, type ShownJob } from './pending'
import { useMyDay } from './queries'
import { useQueue } from './queue-context'
import { RefusalNotice } from './queue-panel'
import { useNow } from './use-now'

const DayMap = lazy(() => import('./day-map'))
const ABSENCE_WORDS = { HOLIDAY: 'holiday', SICK: 'sick leave', TRAINING: 'training', OTHER: 'away' } as const
const SWIPE_MIN_PX = 60

export function MyDayPage() {
  const [params, setParams] = useSearchParams()
  const today = todayIn(BROWSER_TIME_ZONE)
  const date = parseDay(params.get('date')) ?? today
  const day = useMyDay(date)
  const { actions, refusals } = useQueue()
  const shown = useMemo(
    () => (day.data?.jobs ?? []).map((job) => applyPending(job, actions)),
    [day.data, actions],
  )
  const goTo = (next: string) => setParams(next === today ? {} : { date: next })
  const swipe = useSwipe((direction) => goTo(addDays(date, direction)))

  const now = useNow()
  const list = useRef<HTMLOListElement>(null)
  useShowNextStop(list, date === today ? nextStopAfterDone(shown) : null)

  // Counted done once the office has it: a completion waiting on the phone is not done yet.
  const done = shown.filter(isDone).length
  // "On my way" belongs to the next stop: the first still ASSIGNED, once nothing is in progress.
  const next = shown.some(({ job }) => job.status === 'IN_PROGRESS')
    ? undefined
    : shown.find(({ job, pending }) => job.status === 'ASSIGNED' && pending.length === 0)?.job
  const onSite = shown.reduce((sum, { job }) => sum + job.serviceDuration, 0)

  return (
    <div className="my-page" {...swipe}>
      <nav className="my-date-nav" aria-label="Day">
        <Button size="sm" aria-label="Previous day" onClick={() => goTo(addDays(date, -1))}>
          ‹
        </Button>
        <div className="my-date-title">
          <h1>{dayTitle(date)}</h1>
          {date === today ? (
            <span className="muted">Today</span>
          ) : (
            <Button size="sm" variant="ghost" onClick={() => goTo(today)}>
              Back to today
            </Button>
          )}
        </div>
        <Button size="sm" aria-label="Next day" onClick={() => goTo(addDays(date, 1))}>
          ›
        </Button>
      </nav>

      {day.data?.absences?.map((absence) => (
        <Banner key={absence.id} tone="info">
          {absence.startTime
            ? `Away ${absence.startTime}–${absence.endTime} (${ABSENCE_WORDS[absence.reason]})`
            : `You are off this day: ${ABSENCE_WORDS[absence.reason]}`}
          {absence.note ? ` — ${absence.note}` : ''}
        </Banner>
      ))}
      {refusals.map((refusal) => (
        <RefusalNotice key={refusal.key} refusal={refusal} showJob />
      ))}

      {day.isPending ? (
        <LoadingState label="Loading your jobs…" />
      ) : day.error && !day.data ? (
        <ErrorState error={day.error} title="Your jobs could not be loaded" onRetry={() => day.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState
          icon="☀"
          title="No jobs on this day"
          description="Nothing is assigned to you on this date. Use the arrows (or swipe) to see another day."
        />
      ) : (
        <>
          <p className="my-day-summary">
            {shown.length} {shown.length === 1 ? 'job' : 'jobs'} · {done} done · {duration(onSite)} on site
          </p>
          <Suspense fallback={<div className="my-map my-map-loading" />}>
            <DayMap jobs={shown.map(asOfficeSeesIt)} />
          </Suspense>
          <ol className="my-jobs" aria-label={`Jobs on ${dayTitle(date)}, in route order`} ref={list}>
            {shown.map(({ job, pending }) => (
              <li key={job.id}>
                <JobCard job={job} pending={pending} now={now} />
                {date === today && job.id === next?.id && <OnMyWay job={job} />}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  )
}

/** A completion still on the phone is drawn as the job in progress, not as a finished (green) stop. */
function asOfficeSeesIt({ job, pending }: ShownJob) {
  return job.status === 'COMPLETED' && isCompletionPending(pending)
    ? { ...job, status: 'IN_PROGRESS' as const }
    : job
}

/**
 * The stop to show first once some of the day is finished: the next one still to do after the last
 * finished (stops skipped before it stay above), else the first still to do. None before any is
 * finished (the day shows from the top, with its map) or once all are.
 */
function nextStopAfterDone(shown: ShownJob[]): string | null {
  const lastFinished = shown.findLastIndex((entry) => !isRemaining(entry))
  if (lastFinished < 0) return null
  const next = shown.slice(lastFinished + 1).find(isRemaining) ?? shown.find(isRemaining)
  return next?.job.id ?? null
}

/**
 * Scrolls the next stop into view and focuses its link, once per visit of the page (coming back
 * from a job just completed lands on the next one, not on the finished stops at the top).
 */
function useShowNextStop(list: React.RefObject<HTMLOListElement | null>, jobId: string | null) {
  const shownFor = useRef<string | null>(null)
  useEffect(() => {
    if (!jobId || shownFor.current !== null || !list.current) return
    const card = list.current.querySelector<HTMLElement>(`[data-job-id="${CSS.escape(jobId)}"]`)
    if (!card) return
    shownFor.current = jobId
    window.scrollTo({ top: card.getBoundingClientRect().top + window.scrollY - stickyBottom() - GAP_PX })
    card.querySelector<HTMLElement>('h2 a')?.focus({ preventScroll: true })
  }, [list, jobId])
}

const GAP_PX = 12

/** Where the bars stuck to the top of the screen end (the app bar, the offline notice when shown). */
function stickyBottom(): number {
  const bars = document.querySelectorAll<HTMLElement>('.my-bar, .my-offline')
  return Math.max(0, ...Array.from(bars, (bar) => bar.getBoundingClientRect().bottom))
}

/** Horizontal swipes on the page (not the map, which pans): left → next day, right → previous. */
function useSwipe(onSwipe: (direction: 1 | -1) => void) {
  const start = useRef<{ x: number; y: number } | null>(null)
  return {
    onTouchStart(event: React.TouchEvent) {
      const touch = event.touches[0]
      const onMap = (event.target as Element).closest('.leaflet-container')
      start.current = touch && !onMap ? { x: touch.clientX, y: touch.clientY } : null
    },
    onTouchEnd(event: React.TouchEvent) {
      const from = start.current
      const touch = event.changedTouches[0]
      start.current = null
      if (!from || !touch) return
      const dx = touch.clientX - from.x
      const dy = touch.clientY - from.y
      if (Math.abs(dx) >= SWIPE_MIN_PX && Math.abs(dx) > 2 * Math.abs(dy)) onSwipe(dx < 0 ? 1 : -1)
    },
  }
}
