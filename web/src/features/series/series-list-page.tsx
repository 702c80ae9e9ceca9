// Series: every recurring job series of the organisation, newest first — what each visit is, for
// whom, the rule in words, the date of its next visit (skipped ones passed over), and whether it has
// ended. A row opens the series; "Create series" opens the dialog (a job's "Repeat…" does too).
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useListParams } from '../../lib/search-params'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import type { Column } from '../../ui/data-table'
import { DownloadListCsv } from '../../ui/download-list-csv'
import { ListPage } from '../../ui/list-page'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { useCustomer } from '../customers/queries'
import { allSeries, SERIES_CSV, type SeriesListed, useSeriesList } from './queries'
import { shortDate, storedSeriesWords, todayIn } from './rule'
import { SeriesDialog } from './series-dialog'
import './series.css'

/** How a series stands: running, ending on its end date, ended, or finished (its rule has no date left). */
export function SeriesState({
  series,
  nextDate,
}: {
  series: { endDate: string | null; timeZone: string }
  nextDate: string | null
}) {
  if (series.endDate !== null) {
    return series.endDate < todayIn(series.timeZone) || nextDate === null ? (
      <Badge>Ended {shortDate(series.endDate)}</Badge>
    ) : (
      <Badge tone="amber">Ends {shortDate(series.endDate)}</Badge>
    )
  }
  return nextDate === null ? <Badge>Finished</Badge> : <Badge tone="green">Running</Badge>
}

function CustomerName({ id }: { id: string | null | undefined }) {
  const customer = useCustomer(id ?? undefined)
  if (!id) return <span className="muted">No customer</span>
  return <span className="muted">{customer.data?.customer.name ?? '…'}</span>
}

export function SeriesListPage() {
  const params = useListParams()
  const navigate = useNavigate()
  const toast = useToast()
  const [creating, setCreating] = useState(false)
  const list = useSeriesList(params.page)

  const columns: Column<SeriesListed>[] = [
    {
      header: 'Series',
      cell: (s) => (
        <span className="stack" style={{ gap: 0 }}>
          <Link to={`/series/${s.id}`} onClick={(event) => event.stopPropagation()}>
            <strong>{s.job.title}</strong>
          </Link>
          <CustomerName id={s.job.customerId} />
        </span>
      ),
    },
    { header: 'Repeats', cell: (s) => storedSeriesWords(s) },
    {
      header: 'Next visit',
      cell: (s) => (s.nextDate ? shortDate(s.nextDate) : <span className="muted">None</span>),
    },
    {
      header: 'State',
      cell: (s) => <SeriesState series={s} nextDate={s.nextDate} />,
    },
  ]

  return (
    <ListPage
      title="Series"
      description="Visits that repeat: each becomes a job a few weeks ahead, on its own date."
      actions={
        <>
          <DownloadListCsv filename="series.csv" columns={SERIES_CSV} load={allSeries} />
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create series
          </Button>
        </>
      }
      table={{
        label: 'Series',
        columns,
        rows: list.data?.series,
        rowKey: (s) => s.id,
        query: list,
        onRowClick: (s) => navigate(`/series/${s.id}`),
        pagination: list.data?.pagination,
        onPage: (page) => params.set({ page }),
        noun: 'series',
        empty: (
          <EmptyState
            icon="↻"
            title="No series yet"
            description="Create one here, or open a job and choose “Repeat…” to make it a regular visit."
            action={
              <Button variant="primary" onClick={() => setCreating(true)}>
                Create series
              </Button>
            }
          />
        ),
      }}
    >
      {creating && (
        <SeriesDialog
          source={{}}
          onClose={() => setCreating(false)}
          onSaved={(series) => {
            setCreating(false)
            toast.success(`Series ${series.job.title} created`)
            navigate(`/series/${series.id}`)
          }}
        />
      )}
    </ListPage>
  )
}
