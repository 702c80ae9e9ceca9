// Jobs: every job of the organisation, newest first, paged and filtered on the server (status,
// priority, customer, depot, target day); filters live in the URL. A row opens the job; "Create job"
// opens the form. Windows show in each job's depot's time zone. The search (titles) runs on the server.
import { useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useDepots, useTimeZone } from '../../app/time-zone'
import { useListParams } from '../../lib/search-params'
import { formatDateTime } from '../../lib/time'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import { type Column, DataTable } from '../../ui/data-table'
import { Field } from '../../ui/form'
import { PageHeader } from '../../ui/page-header'
import { Pager } from '../../ui/pager'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { useCustomer } from '../customers/queries'
import { CustomerSelect } from './customer-select'
import { JobDialog } from './job-dialog'
import { PRIORITIES, priorityOf, STATUSES, statusOf } from './job-labels'
import { type Job, type JobFilters, useJobs } from './queries'

const FILTERS = ['q', 'status', 'priority', 'customer', 'depot', 'date'] as const

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
  const [searchText, setSearchText] = useState(search ?? '')
  // The search runs on the server: wait for a pause in typing.
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((search ?? '') !== searchText.trim()) params.set({ q: searchText.trim() })
    }, 300)
    return () => clearTimeout(timer)
  }, [searchText, search, params])
  // Clearing the filters (or Back) changes the URL: the box follows it.
  useEffect(() => setSearchText((text) => (text.trim() === (search ?? '') ? text : (search ?? ''))), [search])
  const customer = useCustomer(customerId)
  const jobs = useJobs(params.page, {
    ...(status ? { status } : {}),
    ...(priority ? { priority } : {}),
    ...(customerId ? { customerId } : {}),
    ...(locationId ? { locationId } : {}),
    ...(targetDate ? { targetDate } : {}),
    ...(search ? { search } : {}),
  })
  const filtered = FILTERS.some((name) => params.get(name))
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
              to {time(j.latestEnd, j) ?? 'any time'} · {j.timeWindowType === 'HARD' ? 'hard' : 'soft'}
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

  return (
    <div className="page">
      <PageHeader
        title="Jobs"
        description="Every visit: what, for whom, when, and where it stands."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create job
          </Button>
        }
      />
      <div className="filters">
        <Field label="Search">
          {(control) => (
            <input
              {...control}
              className="input"
              type="search"
              placeholder="Title"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
            />
          )}
        </Field>
        <Field label="Status">
          {(control) => (
            <select
              {...control}
              className="select"
              value={status ?? ''}
              onChange={(e) => params.set({ status: e.target.value })}
            >
              <option value="">Any status</option>
              {STATUSES.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Priority">
          {(control) => (
            <select
              {...control}
              className="select"
              value={priority ?? ''}
              onChange={(e) => params.set({ priority: e.target.value })}
            >
              <option value="">Any priority</option>
              {PRIORITIES.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Depot">
          {(control) => (
            <select
              {...control}
              className="select"
              value={locationId ?? ''}
              onChange={(e) => params.set({ depot: e.target.value })}
            >
              <option value="">Any depot</option>
              {(depots.data?.locations ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Day" hint="Window overlaps this day (UTC)">
          {(control) => (
            <input
              {...control}
              className="input"
              type="date"
              value={targetDate ?? ''}
              onChange={(e) => params.set({ date: e.target.value })}
            />
          )}
        </Field>
        <CustomerSelect
          value={customerId ?? ''}
          current={customer.data?.customer}
          emptyLabel="Any customer"
          onChange={(id) => params.set({ customer: id })}
        />
        {filtered && (
          <Button
            variant="ghost"
            onClick={() => params.set(Object.fromEntries(FILTERS.map((name) => [name, undefined])))}
          >
            Clear filters
          </Button>
        )}
      </div>
      <div>
        <DataTable
          label="Jobs"
          columns={columns}
          rows={jobs.data?.jobs}
          rowKey={(j) => j.id}
          isLoading={jobs.isPending}
          error={jobs.error}
          onRetry={() => jobs.refetch()}
          onRowClick={(j) => navigate(`/jobs/${j.id}`)}
          empty={
            filtered ? (
              <EmptyState
                title="No job matches these filters"
                action={
                  <Button
                    onClick={() => params.set(Object.fromEntries(FILTERS.map((name) => [name, undefined])))}
                  >
                    Clear filters
                  </Button>
                }
              />
            ) : (
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
            )
          }
        />
        <Pager
          pagination={
            jobs.data
              ? { ...jobs.data.pagination, page: jobs.data.pagination.page ?? params.page }
              : undefined
          }
          onPage={(page) => params.set({ page })}
          noun="jobs"
        />
      </div>
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
    </div>
  )
}
