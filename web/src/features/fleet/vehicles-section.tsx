// The Fleet page's vehicles: filtered by depot (`?depot=ID`) and paged (`?page=N`) on the server,
// adding (at the filtered depot), editing the vehicle named by `?vehicle=ID` (so an edit can be
// linked) and deleting with a confirmation that says why a vehicle in use stays.
import { useState } from 'react'
import { useDepots } from '../../app/time-zone'
import type { ListParams } from '../../lib/search-params'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import type { Column } from '../../ui/data-table'
import { DownloadListCsv } from '../../ui/download-list-csv'
import { FilterRow } from '../../ui/filters'
import { NoMatches, PagedTable } from '../../ui/list-page'
import { EditRecord } from '../../ui/record-loading'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { allVehicles, VEHICLE_CSV } from './fleet-csv'
import { useDeleteVehicle, useVehicle, useVehicles, type Vehicle } from './queries'
import { ConfirmDeletion, RowActions } from './record-actions'
import { VehicleDialog } from './vehicle-dialog'

const money = (value: number) => value.toLocaleString('en-GB', { maximumFractionDigits: 2 })

export function VehiclesSection({
  params,
  adding,
  onAdding,
}: {
  params: ListParams
  /** Adding a vehicle (the page header's button opens it too). */
  adding: boolean
  onAdding: (adding: boolean) => void
}) {
  const depotFilter = params.get('depot')
  const allDepots = useDepots()
  const vehicles = useVehicles(params.page, depotFilter)
  const toast = useToast()
  const [deleting, setDeleting] = useState<Vehicle | null>(null)
  const deletion = useDeleteVehicle()
  const editing = params.get('vehicle')
  const open = (changes: Record<string, string | undefined>) => params.set(changes, { keepPage: true })

  const columns: Column<Vehicle>[] = [
    {
      header: 'Vehicle',
      cell: (v) => (
        <span className="stack" style={{ gap: 0 }}>
          <strong>{v.name}</strong>
          <span className="muted">{v.location.name}</span>
        </span>
      ),
    },
    {
      header: 'Costs',
      cell: (v) => (
        <span className="muted">
          {money(v.fixedCost)} fixed · {money(v.costPerKm)}/km · {money(v.costPerHour)}/h
        </span>
      ),
    },
    { header: 'Speed', cell: (v) => `×${v.speedFactor}` },
    {
      header: 'Capacity',
      cell: (v) =>
        v.capacities.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          v.capacities.map((c) => `${c.maxValue} ${c.capacityDimension.label}`).join(', ')
        ),
    },
    {
      header: 'Tags',
      cell: (v) =>
        v.tags.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <span className="row" style={{ gap: 4 }}>
            {v.tags.map((t) => (
              <Badge key={t.tag.id}>{t.tag.name}</Badge>
            ))}
          </span>
        ),
    },
    {
      header: 'Status',
      cell: (v) => (v.isActive ? <Badge tone="green">In service</Badge> : <Badge>Out of service</Badge>),
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      className: 'cell-actions',
      cell: (v) => (
        <RowActions
          noun="vehicle"
          name={v.name}
          onEdit={() => open({ vehicle: v.id })}
          onDelete={() => setDeleting(v)}
        />
      ),
    },
  ]

  return (
    <section className="section" aria-labelledby="vehicles-title">
      <div className="section-header">
        <h2 id="vehicles-title">Vehicles</h2>
        <DownloadListCsv
          filename="vehicles.csv"
          columns={VEHICLE_CSV}
          load={() => allVehicles(depotFilter)}
        />
      </div>
      <FilterRow
        params={params}
        filters={[
          {
            kind: 'select',
            param: 'depot',
            label: 'Depot',
            anyLabel: 'Every depot',
            options: (allDepots.data?.locations ?? []).map((d) => ({ value: d.id, label: d.name })),
          },
        ]}
      />
      <PagedTable
        label="Vehicles"
        columns={columns}
        rows={vehicles.data?.vehicles}
        rowKey={(v) => v.id}
        query={vehicles}
        pagination={vehicles.data?.pagination}
        onPage={(page) => params.set({ page })}
        noun="vehicles"
        empty={
          depotFilter ? (
            <NoMatches
              title="No vehicles at this depot"
              clearLabel="Show every depot"
              onClear={() => params.set({ depot: undefined })}
            />
          ) : (
            <EmptyState
              icon="⇄"
              title="No vehicles yet"
              description="Add the vans your technicians drive; shifts put a worker in one."
              action={<Button onClick={() => onAdding(true)}>Add vehicle</Button>}
            />
          )
        }
      />

      {adding && (
        <VehicleDialog
          defaultDepotId={depotFilter}
          onClose={() => onAdding(false)}
          onSaved={(vehicle) => {
            onAdding(false)
            toast.success(`${vehicle.name} added`)
          }}
        />
      )}
      {editing && (
        <EditRecord
          id={editing}
          noun="vehicle"
          useRecord={useVehicle}
          onClose={() => open({ vehicle: undefined })}
        >
          {(data) => (
            <VehicleDialog
              vehicle={data.vehicle}
              onClose={() => open({ vehicle: undefined })}
              onSaved={(vehicle) => {
                open({ vehicle: undefined })
                toast.success(`${vehicle.name} saved`)
              }}
            />
          )}
        </EditRecord>
      )}
      {deleting && (
        <ConfirmDeletion
          noun="vehicle"
          record={deleting}
          deletion={deletion}
          onDone={() => setDeleting(null)}
        >
          This cannot be undone. A vehicle that shifts still use cannot be deleted: take it out of service
          instead.
        </ConfirmDeletion>
      )}
    </section>
  )
}
