// Fleet: depots (where vans start; each with its time zone), vehicles (costs, capacities, tags),
// and the tags and capacity dimensions they use. Lists page on the server; the vehicle filter and
// the open record live in the URL (`?vehicle=ID`, `?depot-edit=ID`), so an edit can be linked.
import './fleet.css'
import { useState } from 'react'
import { useDepots } from '../../app/time-zone'
import { useListParams } from '../../lib/search-params'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { type Column, DataTable } from '../../ui/data-table'
import { Dialog } from '../../ui/dialog'
import { Field } from '../../ui/form'
import { PageHeader } from '../../ui/page-header'
import { Pager } from '../../ui/pager'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { DepotDialog } from './depot-dialog'
import {
  type Depot,
  useDeleteDepot,
  useDeleteVehicle,
  useDepot,
  useDepotPage,
  useVehicle,
  useVehicles,
  type Vehicle,
} from './queries'
import { CapacityCard, TagsCard } from './reference-data'
import { VehicleDialog } from './vehicle-dialog'

const money = (value: number) => value.toLocaleString('en-GB', { maximumFractionDigits: 2 })

export function FleetPage() {
  const params = useListParams()
  const depotFilter = params.get('depot')
  const depotPage = Math.max(1, Number(params.get('depots') ?? '1') || 1)
  const depots = useDepotPage(depotPage)
  const allDepots = useDepots()
  const vehicles = useVehicles(params.page, depotFilter)
  const toast = useToast()
  const [adding, setAdding] = useState<'depot' | 'vehicle' | null>(null)
  const [deleting, setDeleting] = useState<
    { kind: 'depot'; record: Depot } | { kind: 'vehicle'; record: Vehicle } | null
  >(null)
  const deleteDepot = useDeleteDepot()
  const deleteVehicle = useDeleteVehicle()
  const editingDepot = params.get('depot-edit')
  const editingVehicle = params.get('vehicle')
  const open = (changes: Record<string, string | undefined>) => params.set(changes, { keepPage: true })

  const depotColumns: Column<Depot>[] = [
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
        <span className="row" style={{ justifyContent: 'flex-end', flexWrap: 'nowrap' }}>
          <Button size="sm" onClick={() => open({ 'depot-edit': d.id })} aria-label={`Edit depot ${d.name}`}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setDeleting({ kind: 'depot', record: d })}
            aria-label={`Delete depot ${d.name}`}
          >
            Delete
          </Button>
        </span>
      ),
    },
  ]

  const vehicleColumns: Column<Vehicle>[] = [
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
        <span className="row" style={{ justifyContent: 'flex-end', flexWrap: 'nowrap' }}>
          <Button size="sm" onClick={() => open({ vehicle: v.id })} aria-label={`Edit vehicle ${v.name}`}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setDeleting({ kind: 'vehicle', record: v })}
            aria-label={`Delete vehicle ${v.name}`}
          >
            Delete
          </Button>
        </span>
      ),
    },
  ]

  const deletion = deleting?.kind === 'depot' ? deleteDepot : deleteVehicle

  return (
    <div className="page">
      <PageHeader
        title="Fleet"
        description="Depots, the vehicles that start from them, and what they carry."
        actions={
          <>
            <Button onClick={() => setAdding('depot')}>Add depot</Button>
            <Button variant="primary" onClick={() => setAdding('vehicle')}>
              Add vehicle
            </Button>
          </>
        }
      />
      <section className="section" aria-labelledby="depots-title">
        <div className="section-header">
          <h2 id="depots-title">Depots</h2>
        </div>
        <div>
          <DataTable
            label="Depots"
            columns={depotColumns}
            rows={depots.data?.locations}
            rowKey={(d) => d.id}
            isLoading={depots.isPending}
            error={depots.error}
            onRetry={() => depots.refetch()}
            loadingRows={2}
            empty={
              <EmptyState
                icon="⌂"
                title="No depots yet"
                description="Add the yard or office your vans start from."
                action={<Button onClick={() => setAdding('depot')}>Add depot</Button>}
              />
            }
          />
          <Pager
            pagination={depots.data?.pagination}
            onPage={(page) => open({ depots: String(page) })}
            noun="depots"
          />
        </div>
      </section>
      <section className="section" aria-labelledby="vehicles-title">
        <div className="section-header">
          <h2 id="vehicles-title">Vehicles</h2>
        </div>
        <div className="filters">
          <Field label="Depot">
            {(control) => (
              <select
                {...control}
                className="select"
                value={depotFilter ?? ''}
                onChange={(e) => params.set({ depot: e.target.value })}
              >
                <option value="">Every depot</option>
                {(allDepots.data?.locations ?? []).map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div>
          <DataTable
            label="Vehicles"
            columns={vehicleColumns}
            rows={vehicles.data?.vehicles}
            rowKey={(v) => v.id}
            isLoading={vehicles.isPending}
            error={vehicles.error}
            onRetry={() => vehicles.refetch()}
            empty={
              depotFilter ? (
                <EmptyState
                  title="No vehicles at this depot"
                  action={<Button onClick={() => params.set({ depot: undefined })}>Show every depot</Button>}
                />
              ) : (
                <EmptyState
                  icon="⇄"
                  title="No vehicles yet"
                  description="Add the vans your technicians drive; shifts put a worker in one."
                  action={<Button onClick={() => setAdding('vehicle')}>Add vehicle</Button>}
                />
              )
            }
          />
          <Pager
            pagination={vehicles.data?.pagination}
            onPage={(page) => params.set({ page })}
            noun="vehicles"
          />
        </div>
      </section>
      <div className="fleet-reference">
        <TagsCard />
        <CapacityCard />
      </div>

      {adding === 'depot' && (
        <DepotDialog
          onClose={() => setAdding(null)}
          onSaved={(depot) => {
            setAdding(null)
            toast.success(`Depot ${depot.name} added`)
          }}
        />
      )}
      {adding === 'vehicle' && (
        <VehicleDialog
          defaultDepotId={depotFilter}
          onClose={() => setAdding(null)}
          onSaved={(vehicle) => {
            setAdding(null)
            toast.success(`${vehicle.name} added`)
          }}
        />
      )}
      {editingDepot && (
        <EditDepot
          id={editingDepot}
          onClose={() => open({ 'depot-edit': undefined })}
          onSaved={(depot) => {
            open({ 'depot-edit': undefined })
            toast.success(`Depot ${depot.name} saved`)
          }}
        />
      )}
      {editingVehicle && (
        <EditVehicle
          id={editingVehicle}
          onClose={() => open({ vehicle: undefined })}
          onSaved={(vehicle) => {
            open({ vehicle: undefined })
            toast.success(`${vehicle.name} saved`)
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.kind} ${deleting.record.name}?`}
          confirmLabel={`Delete ${deleting.kind}`}
          pending={deletion.isPending}
          error={deletion.error}
          onClose={() => {
            deletion.reset()
            setDeleting(null)
          }}
          onConfirm={() =>
            deletion.mutate(deleting.record.id, {
              onSuccess: () => {
                toast.success(`${deleting.record.name} deleted`)
                setDeleting(null)
              },
            })
          }
        >
          <p>
            {deleting.kind === 'depot'
              ? 'This cannot be undone. A depot that vehicles, shifts or jobs still use cannot be deleted: make it inactive instead to keep its history.'
              : 'This cannot be undone. A vehicle that shifts still use cannot be deleted: take it out of service instead.'}
          </p>
        </ConfirmDialog>
      )}
    </div>
  )
}

/** While the record of the URL loads, or when it is not found, a dialog says so. */
function Loading({
  title,
  noun,
  error,
  onRetry,
  onClose,
}: {
  title: string
  noun: string
  error: unknown
  onRetry: () => void
  onClose: () => void
}) {
  return (
    <Dialog title={title} onClose={onClose} footer={<Button onClick={onClose}>Close</Button>}>
      {error ? (
        <ErrorState error={error} title={`This ${noun} could not be loaded`} onRetry={onRetry} />
      ) : (
        <LoadingState label={`Loading the ${noun}…`} />
      )}
    </Dialog>
  )
}

function EditDepot({
  id,
  onClose,
  onSaved,
}: {
  id: string
  onClose: () => void
  onSaved: (depot: Depot) => void
}) {
  const query = useDepot(id)
  if (query.data) return <DepotDialog depot={query.data.location} onClose={onClose} onSaved={onSaved} />
  return (
    <Loading
      title="Edit depot"
      noun="depot"
      error={query.error}
      onRetry={() => query.refetch()}
      onClose={onClose}
    />
  )
}

function EditVehicle({
  id,
  onClose,
  onSaved,
}: {
  id: string
  onClose: () => void
  onSaved: (vehicle: Vehicle) => void
}) {
  const query = useVehicle(id)
  if (query.data) return <VehicleDialog vehicle={query.data.vehicle} onClose={onClose} onSaved={onSaved} />
  return (
    <Loading
      title="Edit vehicle"
      noun="vehicle"
      error={query.error}
      onRetry={() => query.refetch()}
      onClose={onClose}
    />
  )
}
