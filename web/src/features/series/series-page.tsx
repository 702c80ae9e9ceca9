// One series (`/series/:seriesId`): the rule in words with its window, from when and until when;
// what each visit is; its next occurrences — made into jobs or not yet, skipped, moved — each with
// Skip (confirmed) and Move (a date); the jobs it has made (links, status); Edit (the series
// dialog) and End series (a last date, confirmed). Another organisation's series is "not found".
import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { formatDuration } from '../../lib/form-values'
import { formatDateTime } from '../../lib/time'
import { Badge } from '../../ui/badge'
import { Button, ButtonLink } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { type Column, DataTable } from '../../ui/data-table'
import { Field } from '../../ui/form'
import { PageHeader } from '../../ui/page-header'
import { Pager } from '../../ui/pager'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { useCustomer } from '../customers/queries'
import { priorityOf, statusOf, windowTypeLabel } from '../jobs/job-labels'
import {
  type Occurrence,
  type SeriesDetail,
  type SeriesJob,
  useEndSeries,
  useMoveOccurrence,
  useSeries,
  useSeriesJobs,
  useSkipOccurrence,
} from './queries'
import { fromRRule, longDate, shortDate, storedSeriesWords, todayIn } from './rule'
import { SeriesDialog } from './series-dialog'
import { SeriesState } from './series-list-page'
import './series.css'

export function SeriesPage() {
  const { seriesId = '' } = useParams()
  const query = useSeries(seriesId)
  const crumbs = [{ label: 'Series', to: '/series' }]
  if (query.isPending) return <LoadingState />
  if (query.error) {
    return (
      <div className="page">
        <PageHeader breadcrumbs={crumbs} title="Series" />
        <div className="card">
          <ErrorState
            error={query.error}
            title="This series could not be loaded"
            onRetry={() => query.refetch()}
          />
        </div>
        <div>
          <ButtonLink to="/series">Back to series</ButtonLink>
        </div>
      </div>
    )
  }
  return <SeriesView series={query.data.series} />
}

type Action = { kind: 'edit' } | { kind: 'end' } | { kind: 'skip' | 'move'; occurrence: Occurrence }

/** When the series stops: its end date, else its rule's UNTIL or COUNT, else never. */
function endsWords(series: SeriesDetail): string {
  if (series.endDate) return `Ended: no visit after ${longDate(series.endDate)}`
  const rule = fromRRule(series.rrule, series.startDate)
  if (rule?.ends === 'on') return `On ${longDate(rule.until)}`
  if (rule?.ends === 'after') return `After ${rule.count} ${rule.count === '1' ? 'time' : 'times'}`
  return 'Never'
}

function SeriesView({ series }: { series: SeriesDetail }) {
  const toast = useToast()
  const [action, setAction] = useState<Action | null>(null)
  const [jobsPage, setJobsPage] = useState(1)
  // The last date offered: today, or the start date for a series that has not started yet.
  const [lastDate, setLastDate] = useState(() => {
    const today = todayIn(series.timeZone)
    return series.startDate.localeCompare(today) > 0 ? series.startDate : today
  })
  const [moveTo, setMoveTo] = useState('')
  const jobs = useSeriesJobs(series.id, jobsPage)
  const end = useEndSeries()
  const skip = useSkipOccurrence()
  const move = useMoveOccurrence()
  const customer = useCustomer(series.job.customerId ?? undefined)
  const zone = series.timeZone
  const nextDate = series.nextOccurrences.find((o) => !o.skipped)
  const ended = series.endDate !== null && series.endDate < todayIn(zone)
  const close = () => {
    end.reset()
    skip.reset()
    move.reset()
    setAction(null)
  }
  const jobOf = (id: string | null) => jobs.data?.jobs.find((j) => j.id === id)

  const occurrenceColumns: Column<Occurrence>[] = [
    {
      header: 'Date',
      cell: (o) =>
        o.movedTo ? (
          <span className="stack" style={{ gap: 0 }}>
            <strong>{shortDate(o.movedTo)}</strong>
            <span className="muted">moved from {shortDate(o.date)}</span>
          </span>
        ) : (
          <span className={o.skipped ? 'series-skipped' : undefined}>{shortDate(o.date)}</span>
        ),
    },
    {
      header: 'Visit',
      cell: (o) => {
        if (o.skipped) return <Badge>Skipped</Badge>
        if (!o.jobId) return <span className="muted">Not made into a job yet</span>
        const job = jobOf(o.jobId)
        return (
          <span className="row">
            <Link to={`/jobs/${o.jobId}`}>{job ? job.number : 'Its job'}</Link>
            {job && <Badge tone={statusOf(job.status).tone}>{statusOf(job.status).label}</Badge>}
          </span>
        )
      },
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      align: 'right',
      cell: (o) =>
        o.skipped ? null : (
          <span className="row series-actions">
            <Button size="sm" onClick={() => setAction({ kind: 'skip', occurrence: o })}>
              Skip<span className="visually-hidden"> {shortDate(o.date)}</span>
            </Button>
            <Button
              size="sm"
              onClick={() => {
                setMoveTo(o.movedTo ?? o.date)
                setAction({ kind: 'move', occurrence: o })
              }}
            >
              Move<span className="visually-hidden"> {shortDate(o.date)}</span>
            </Button>
          </span>
        ),
    },
  ]

  const jobColumns: Column<SeriesJob>[] = [
    {
      header: 'Job',
      cell: (j) => (
        <span className="stack" style={{ gap: 0 }}>
          <Link to={`/jobs/${j.id}`}>
            <strong>{j.number}</strong>
          </Link>
          <span className="muted">{j.title}</span>
        </span>
      ),
    },
    { header: 'Occurrence', cell: (j) => shortDate(j.occurrenceDate) },
    {
      header: 'Window',
      cell: (j) =>
        j.earliestStart ? (
          <span className="stack" style={{ gap: 0 }}>
            <span>{formatDateTime(j.earliestStart, zone)}</span>
            <span className="muted">
              to {formatDateTime(j.latestEnd, zone)} · {windowTypeLabel(j.timeWindowType).toLowerCase()}
            </span>
          </span>
        ) : (
          <span className="muted">Any time</span>
        ),
    },
    {
      header: 'Status',
      cell: (j) => <Badge tone={statusOf(j.status).tone}>{statusOf(j.status).label}</Badge>,
    },
  ]

  const occurrence = action && 'occurrence' in action ? action.occurrence : null
  return (
    <div className="page">
      <PageHeader
        breadcrumbs={[{ label: 'Series', to: '/series' }]}
        title={
          <span className="row">
            {series.job.title} <SeriesState series={series} nextDate={nextDate?.date ?? null} />
          </span>
        }
        description={storedSeriesWords(series)}
        actions={
          <>
            <Button onClick={() => setAction({ kind: 'edit' })}>Edit</Button>
            {!ended && (
              <Button variant="danger" onClick={() => setAction({ kind: 'end' })}>
                End series
              </Button>
            )}
          </>
        }
      />
      <div className="card">
        <div className="card-body">
          <dl className="details series-details">
            <dt>Starts</dt>
            <dd>{longDate(series.startDate)}</dd>
            <dt>Ends</dt>
            <dd>{endsWords(series)}</dd>
            <dt>Customer</dt>
            <dd>
              {series.job.customerId ? (
                (customer.data?.customer.name ?? '…')
              ) : (
                <span className="muted">None</span>
              )}
            </dd>
            <dt>Priority</dt>
            <dd>
              <Badge tone={priorityOf(series.job.priority ?? 'NORMAL').tone}>
                {priorityOf(series.job.priority ?? 'NORMAL').label}
              </Badge>
            </dd>
            <dt>Service time</dt>
            <dd>
              {series.job.serviceDuration !== undefined ? (
                formatDuration(series.job.serviceDuration)
              ) : (
                <span className="muted">The customer’s default</span>
              )}
            </dd>
            <dt>Dates in</dt>
            <dd>{zone}</dd>
          </dl>
        </div>
      </div>

      <section className="section" aria-labelledby="series-next">
        <div className="section-header">
          <h2 id="series-next">Next visits</h2>
        </div>
        <DataTable
          label="Next visits"
          columns={occurrenceColumns}
          rows={series.nextOccurrences}
          rowKey={(o) => o.date}
          isLoading={false}
          error={null}
          empty={
            <EmptyState icon="↻" title="No visits left" description="The series has no date after today." />
          }
        />
      </section>

      <section className="section" aria-labelledby="series-jobs">
        <div className="section-header">
          <h2 id="series-jobs">Jobs made</h2>
        </div>
        <DataTable
          label="Jobs made"
          columns={jobColumns}
          rows={jobs.data?.jobs}
          rowKey={(j) => j.id}
          isLoading={jobs.isPending}
          error={jobs.error}
          onRetry={() => jobs.refetch()}
          empty={
            <EmptyState
              icon="☰"
              title="No jobs yet"
              description="Each visit becomes a job a few weeks before its date."
            />
          }
        />
        <Pager pagination={jobs.data?.pagination} onPage={setJobsPage} noun="jobs" />
      </section>

      {action?.kind === 'edit' && (
        <SeriesDialog
          source={{ series }}
          onClose={close}
          onSaved={() => {
            close()
            toast.success('Series saved')
          }}
        />
      )}
      {action?.kind === 'end' && (
        <ConfirmDialog
          title={`End ${series.job.title}?`}
          confirmLabel="End series"
          pending={end.isPending}
          error={end.error}
          onClose={close}
          onConfirm={() =>
            end.mutate(
              { id: series.id, lastDate },
              {
                onSuccess: () => {
                  toast.success('Series ended')
                  close()
                },
              },
            )
          }
        >
          <p>
            No visit after the last date. Jobs already made for later dates that nobody has assigned are
            cancelled; assigned ones stay for you to handle. This cannot be undone.
          </p>
          <Field label="Last date" hint={`In ${zone}`}>
            {(control) => (
              <input
                {...control}
                type="date"
                className="input"
                min={series.startDate}
                value={lastDate}
                onChange={(e) => setLastDate(e.target.value)}
              />
            )}
          </Field>
        </ConfirmDialog>
      )}
      {action?.kind === 'skip' && occurrence && (
        <ConfirmDialog
          title={`Skip the visit of ${shortDate(occurrence.movedTo ?? occurrence.date)}?`}
          confirmLabel="Skip visit"
          pending={skip.isPending}
          error={skip.error}
          onClose={close}
          onConfirm={() =>
            skip.mutate(
              { id: series.id, date: occurrence.date },
              {
                onSuccess: () => {
                  toast.success('Visit skipped')
                  close()
                },
              },
            )
          }
        >
          <p>
            This date will have no visit, and the series never makes it again. Its job, if made and not yet
            assigned, is cancelled. The other dates stay as they are.
          </p>
        </ConfirmDialog>
      )}
      {action?.kind === 'move' && occurrence && (
        <ConfirmDialog
          title={`Move the visit of ${shortDate(occurrence.date)}`}
          confirmLabel="Move visit"
          tone="primary"
          pending={move.isPending}
          error={move.error}
          onClose={close}
          onConfirm={() =>
            move.mutate(
              { id: series.id, date: occurrence.date, to: moveTo },
              {
                onSuccess: () => {
                  toast.success(`Visit moved to ${shortDate(moveTo)}`)
                  close()
                },
              },
            )
          }
        >
          <p>
            The visit happens on another date instead, in the series’ window. Its job, if made and not yet
            assigned, moves with it.
          </p>
          <Field label="New date" hint={`In ${zone}`}>
            {(control) => (
              <input
                {...control}
                type="date"
                className="input"
                required
                value={moveTo}
                onChange={(e) => setMoveTo(e.target.value)}
              />
            )}
          </Field>
        </ConfirmDialog>
      )}
    </div>
  )
}
