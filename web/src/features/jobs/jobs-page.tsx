// Jobs: every job of the organisation in date order (scheduled start, else window start; undated
// last), paged and filtered on the server (status, priority, customer, depot, a day in the
// organisation's time zone); filters live in the URL. A row opens the job; "Create job"
// opens the form. Windows show in each job's depot's time zone. The search (titles) runs on the server.
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useDepots, useTimeZone } from '../../app/time-zone'
import { useListParams } from '../../lib/search-params'
import { formatDateTime } from '../../lib/time'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import type { Column } from '../../ui/data-table'
import { DownloadCsv } from '../../ui/download-csv'
import { ListPage } from '../../ui/list-page'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { useCustomer } from '../customers/queries'
import { CustomerSelect } from './customer-select'
import { JobDialog } from './job-dialog'
import { PRIORITIES, priorityOf, STATUSES, statusOf, windowTypeLabel } from './job-labels'
import { type Job, type JobFilters, useJobs } from './queries'

export function JobsPage() {
  const params = useListParams()
  const navigate = useNavigate()
  const toast = useToast()
  const depots = useDepots()
  const organisationZone = useTimeZone()
  const [creating, setCreating] = useState(false)
  const status = params.get('status') as JobFilters['status']
  const priority = params.get('priority') as JobFilters['priority']
  const customerId = params.get('customer')
  const locationId = params.get('depot')
  const targetDate = params.get('date')
  const search = params.get('q')
  const customer = useCustomer(customerId)
  const jobs = useJobs(params.page, {
    ...(status ? { status } : {}),
    ...(priority ? { priority } : {}),
    ...(customerId ? { customerId } : {}),
    ...(locationId ? { locationId } : {}),
    ...(targetDate ? { targetDate, timeZone: organisationZone } : {}),
    ...(search ? { search } : {}),
    sort: 'date',
  })
  const zoneOf = (job: Job) =>
    depots.data?.locations.find((d) => d.id === job.locationId)?.timezone ?? organisationZone
  const time = (iso: string | null, job: Job) => (iso ? formatDateTime(iso, zoneOf(job)) : null)

  const columns: Column<Job>[] = [
    {
      header: 'Job',
      cell: (j) => (
        <span className="stack" style={{ gap: 0 }}>
          {/* The row is clickable too; the link is the keyboard's and the screen reader's way in. */}
          <Link to={`/jobs/${j.id}`} onClick={(event) => event.stopPropagation()}>
            <strong>{j.title}</strong>
          </Link>
          <span className="muted mono">{j.number}</span>
          <span className="muted">{j.customer?.name ?? 'No customer'}</span>
        </span>
      ),
    },
    {
      header: 'Status',
      cell: (j) => <Badge tone={statusOf(j.status).tone}>{statusOf(j.status).label}</Badge>,
    },
    {
      header: 'Priority',
      cell: (j) => <Badge tone={priorityOf(j.priority).tone}>{priorityOf(j.priority).label}</Badge>,
    },
    { header: 'Depot', cell: (j) => j.location?.name ?? <span className="muted">—</span> },
    {
      header: 'Window',
      cell: (j) =>
        j.earliestStart || j.latestEnd ? (
          <span className="stack" style={{ gap: 0 }}>
            <span>{time(j.earliestStart, j) ?? 'Any time'}</span>
            <span className="muted">
              to {time(j.latestEnd, j) ?? 'any time'} · {windowTypeLabel(j.timeWindowType).toLowerCase()}
            </span>
          </span>
        ) : (
          <span className="muted">Any time</span>
        ),
    },
    {
      header: 'Scheduled',
      cell: (j) =>
        j.assignedUser ? (
          <span className="stack" style={{ gap: 0 }}>
            <span>{j.assignedUser.name}</span>
            <span className="muted">{time(j.scheduledStart, j) ?? 'No time'}</span>
          </span>
        ) : (
          <span className="muted">—</span>
        ),
    },
  ]

  const depotOptions = (depots.data?.locations ?? []).map((d) => ({ value: d.id, label: d.name }))

  return (
    <ListPage
      title="Jobs"
      description="Every visit: what, for whom, when, and where it stands."
      actions={
        <>
          <DownloadCsv
            path="/jobs/export.csv"
            query={{
              status,
              priority,
              customerId,
              locationId,
              targetDate,
              timeZone: targetDate ? organisationZone : null,
              search,
            }}
          />
          <Link className="btn" to="/import?kind=jobs">
            Import CSV
          </Link>
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create job
          </Button>
        </>
      }
      filters={{
        params,
        items: [
          { kind: 'search', placeholder: 'Title' },
          { kind: 'select', param: 'status', label: 'Status', anyLabel: 'Any status', options: STATUSES },
          {
            kind: 'select',
            param: 'priority',
            label: 'Priority',
            anyLabel: 'Any priority',
            options: PRIORITIES,
          },
          { kind: 'select', param: 'depot', label: 'Depot', anyLabel: 'Any depot', options: depotOptions },
          {
            kind: 'date',
            param: 'date',
            label: 'Day',
            hint: `Window overlaps this day (${organisationZone})`,
          },
          {
            kind: 'custom',
            param: 'customer',
            control: (
              <CustomerSelect
                value={customerId ?? ''}
                current={customer.data?.customer}
                emptyLabel="Any customer"
                onChange={(id) => params.set({ customer: id })}
              />
            ),
          },
        ],
        noMatches: { title: 'No job matches these filters' },
        clearButton: true,
      }}
      table={{
        label: 'Jobs',
        columns,
        rows: jobs.data?.jobs,
        rowKey: (j) => j.id,
        query: jobs,
        onRowClick: (j) => navigate(`/jobs/${j.id}`),
        pagination: jobs.data
          ? { ...jobs.data.pagination, page: jobs.data.pagination.page ?? params.page }
          : undefined,
        onPage: (page) => params.set({ page }),
        noun: 'jobs',
        empty: (
          <EmptyState
            icon="☰"
            title="No jobs yet"
            description="Create a job here, or send them from your own systems through the API."
            action={
              <Button variant="primary" onClick={() => setCreating(true)}>
                Create job
              </Button>
            }
          />
        ),
      }}
    >
      {creating && (
        <JobDialog
          onClose={() => setCreating(false)}
          onSaved={(job) => {
            setCreating(false)
            toast.success(`${job.title} created`)
            navigate(`/jobs/${job.id}`)
          }}
        />
      )}
    </ListPage>
  )
}
