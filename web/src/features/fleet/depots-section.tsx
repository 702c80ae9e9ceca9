// The Fleet page's depots: a paged list (`?depots=N`, apart from the vehicles' page), adding,
// editing the depot named by `?depot-edit=ID` (so an edit can be linked) and deleting with a
// confirmation that says why a depot in use stays.
import { useState } from 'react'
import type { ListParams } from '../../lib/search-params'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import type { Column } from '../../ui/data-table'
import { DownloadListCsv } from '../../ui/download-list-csv'
import { PagedTable } from '../../ui/list-page'
import { EditRecord } from '../../ui/record-loading'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { DepotDialog } from './depot-dialog'
import { allDepots, DEPOT_CSV } from './fleet-csv'
import { type Depot, useDeleteDepot, useDepot, useDepotPage } from './queries'
import { ConfirmDeletion, RowActions } from './record-actions'

export function DepotsSection({
  params,
  adding,
  onAdding,
}: {
  params: ListParams
  /** Adding a depot (the page header's button opens it too). */
  adding: boolean
  onAdding: (adding: boolean) => void
}) {
  const depotPage = Math.max(1, Number(params.get('depots') ?? '1') || 1)
  const depots = useDepotPage(depotPage)
  const toast = useToast()
  const [deleting, setDeleting] = useState<Depot | null>(null)
  const deletion = useDeleteDepot()
  const editing = params.get('depot-edit')
  const open = (changes: Record<string, string | undefined>) => params.set(changes, { keepPage: true })

  const columns: Column<Depot>[] = [
    {
      header: 'Depot',
      cell: (d) => (
        <span className="stack" style={{ gap: 0 }}>
          <strong>
            {d.name} <span className="muted mono">{d.code}</span>
          </strong>
          <span className="muted">{d.address || 'No address'}</span>
        </span>
      ),
    },
    { header: 'Time zone', cell: (d) => d.timezone },
    {
      header: 'Coordinates',
      cell: (d) => (
        <span className="mono">
          {Number(d.latitude).toFixed(4)}, {Number(d.longitude).toFixed(4)}
        </span>
      ),
    },
    {
      header: 'Status',
      cell: (d) => (
        <span className="row">
          {d.isPrimary && <Badge tone="purple">Primary</Badge>}
          {d.isActive ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}
        </span>
      ),
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      className: 'cell-actions',
      cell: (d) => (
        <RowActions
          noun="depot"
          name={d.name}
          onEdit={() => open({ 'depot-edit': d.id })}
          onDelete={() => setDeleting(d)}
        />
      ),
    },
  ]

  return (
    <section className="section" aria-labelledby="depots-title">
      <div className="section-header">
        <h2 id="depots-title">Depots</h2>
        <DownloadListCsv filename="depots.csv" columns={DEPOT_CSV} load={allDepots} />
      </div>
      <PagedTable
        label="Depots"
        columns={columns}
        rows={depots.data?.locations}
        rowKey={(d) => d.id}
        query={depots}
        loadingRows={2}
        pagination={depots.data?.pagination}
        onPage={(page) => open({ depots: String(page) })}
        noun="depots"
        empty={
          <EmptyState
            icon="⌂"
            title="No depots yet"
            description="Add the yard or office your vans start from."
            action={<Button onClick={() => onAdding(true)}>Add depot</Button>}
          />
        }
      />

      {adding && (
        <DepotDialog
          onClose={() => onAdding(false)}
          onSaved={(depot) => {
            onAdding(false)
            toast.success(`Depot ${depot.name} added`)
          }}
        />
      )}
      {editing && (
        <EditRecord
          id={editing}
          noun="depot"
          useRecord={useDepot}
          onClose={() => open({ 'depot-edit': undefined })}
        >
          {({ location }) => (
            <DepotDialog
              depot={location}
              onClose={() => open({ 'depot-edit': undefined })}
              onSaved={(depot) => {
                open({ 'depot-edit': undefined })
                toast.success(`Depot ${depot.name} saved`)
              }}
            />
          )}
        </EditRecord>
      )}
      {deleting && (
        <ConfirmDeletion noun="depot" record={deleting} deletion={deletion} onDone={() => setDeleting(null)}>
          This cannot be undone. A depot that vehicles, shifts or jobs still use cannot be deleted: make it
          inactive instead to keep its history.
        </ConfirmDeletion>
      )}
    </section>
  )
}
