// Shifts: a depot's week of shift templates as a grid — one row per worker, one column per weekday,
// each shift a block with its times, vehicle and breaks (shaded on its bar). Add a shift from the
// header or an empty cell; a block opens it for editing (`?shift=ID`, so an edit can be linked), and
// from there one date's hours can change (`?dates=ID`).
import './shifts.css'
import { useState } from 'react'
import { useDepots } from '../../app/time-zone'
import { useListParams } from '../../lib/search-params'
import { Button, ButtonLink } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { DownloadListCsv } from '../../ui/download-list-csv'
import { Field } from '../../ui/form'
import { PageHeader } from '../../ui/page-header'
import { Pager } from '../../ui/pager'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { allDepotShifts, SHIFT_CSV, type Shift, useDepotShifts, useShift, type Weekday } from './queries'
import { ShiftDateDialog } from './shift-date-dialog'
import { ShiftDialog } from './shift-dialog'
import { WeekGrid } from './week-grid'

export function ShiftsPage() {
  const params = useListParams()
  const depots = useDepots()
  const list = depots.data?.locations ?? []
  const chosen = params.get('depot')
  const depot = list.find((d) => d.id === chosen) ?? list.find((d) => d.isPrimary) ?? list[0]
  const shifts = useDepotShifts(depot?.id, params.page)
  const toast = useToast()
  const [adding, setAdding] = useState<{ userId?: string; day?: Weekday } | null>(null)
  const editing = params.get('shift')
  const closeEdit = () => params.set({ shift: undefined }, { keepPage: true })
  const changingDates = params.get('dates')

  const header = (
    <PageHeader
      title="Shifts"
      description="The weekly pattern of who works when, in which vehicle, from which depot."
      actions={
        depot && (
          <>
            <DownloadListCsv
              filename={`shifts-${depot.code || depot.name}.csv`}
              columns={SHIFT_CSV}
              load={() => allDepotShifts(depot.id)}
            />
            <Button variant="primary" onClick={() => setAdding({})}>
              Add shift
            </Button>
          </>
        )
      }
    />
  )
  if (depots.isPending) return <LoadingState />
  if (depots.error) {
    return (
      <div className="page">
        {header}
        <div className="card">
          <ErrorState error={depots.error} onRetry={() => depots.refetch()} />
        </div>
      </div>
    )
  }
  if (!depot) {
    return (
      <div className="page">
        {header}
        <div className="card">
          <EmptyState
            icon="⌂"
            title="No depots yet"
            description="Shifts start from a depot: add one on the Fleet page first."
            action={<ButtonLink to="/fleet">Go to Fleet</ButtonLink>}
          />
        </div>
      </div>
    )
  }

  return (
    <div className="page">
      {header}
      <div className="filters">
        <Field label="Depot" hint={`Times in ${depot.timezone}`}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={depot.id}
              onChange={(e) => params.set({ depot: e.target.value })}
            >
              {list.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div>
        {shifts.error && !shifts.data ? (
          <div className="card">
            <ErrorState error={shifts.error} onRetry={() => shifts.refetch()} />
          </div>
        ) : shifts.isPending ? (
          <div className="card">
            <LoadingState label="Loading shifts…" />
          </div>
        ) : shifts.data.shifts.length === 0 ? (
          <div className="card">
            <EmptyState
              icon="◷"
              title={`No shifts at ${depot.name} yet`}
              description="Add each worker’s weekly shifts: the board and the route optimiser plan jobs onto them."
              action={
                <Button variant="primary" onClick={() => setAdding({})}>
                  Add shift
                </Button>
              }
            />
          </div>
        ) : (
          <>
            <WeekGrid
              depotName={depot.name}
              shifts={shifts.data.shifts}
              onOpen={(shift: Shift) => params.set({ shift: shift.id }, { keepPage: true })}
              onAdd={(userId, day) => setAdding({ userId, day })}
            />
            <p className="shift-legend">
              <span className="shift-swatch" aria-hidden="true" /> Working time
              <span className="shift-swatch shift-break" aria-hidden="true" /> Unpaid break
              <span className="shift-swatch shift-break-paid" aria-hidden="true" /> Paid break
            </p>
          </>
        )}
        <Pager pagination={shifts.data?.pagination} onPage={(page) => params.set({ page })} noun="shifts" />
      </div>
      {adding && (
        <ShiftDialog
          depot={depot}
          preset={adding}
          onClose={() => setAdding(null)}
          onDone={(message) => {
            setAdding(null)
            toast.success(message)
          }}
        />
      )}
      {editing && (
        <EditShift
          id={editing}
          depots={list}
          onClose={closeEdit}
          onDone={(message) => {
            closeEdit()
            toast.success(message)
          }}
          onChangeDate={() => params.set({ shift: undefined, dates: editing }, { keepPage: true })}
        />
      )}
      {changingDates && (
        <EditShift
          id={changingDates}
          depots={list}
          dates
          onClose={() => params.set({ dates: undefined }, { keepPage: true })}
          onDone={() => undefined}
        />
      )}
    </div>
  )
}

/** The shift named in the URL, loaded, in its edit dialog (or, with `dates`, its date changes). */
function EditShift({
  id,
  depots,
  dates = false,
  onClose,
  onDone,
  onChangeDate,
}: {
  id: string
  depots: { id: string; name: string; timezone: string }[]
  dates?: boolean
  onClose: () => void
  onDone: (message: string) => void
  onChangeDate?: () => void
}) {
  const query = useShift(id)
  const shift = query.data?.shift
  if (shift) {
    const depot = depots.find((d) => d.id === shift.locationId) ?? { ...shift.location, timezone: 'UTC' }
    if (dates) return <ShiftDateDialog shift={shift} timeZone={depot.timezone} onClose={onClose} />
    return (
      <ShiftDialog
        shift={shift}
        depot={depot}
        onClose={onClose}
        onDone={onDone}
        onChangeDate={onChangeDate}
      />
    )
  }
  return (
    <Dialog title="Edit shift" onClose={onClose} footer={<Button onClick={onClose}>Close</Button>}>
      {query.error ? (
        <ErrorState
          error={query.error}
          title="This shift could not be loaded"
          onRetry={() => query.refetch()}
        />
      ) : (
        <LoadingState label="Loading the shift…" />
      )}
    </Dialog>
  )
}
