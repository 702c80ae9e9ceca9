// Create or edit a shift template: worker, vehicle, weekday(s), start and end, and breaks (paid or
// unpaid). Creating for several weekdays makes one shift per day. Editing can delete the shift,
// which the API refuses while jobs are planned on it (explained in the dialog).
import { useState } from 'react'
import { ApiError } from '../../api/errors'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { FormDialog } from '../../ui/form-dialog'
import { SelectField, TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
import { useVehicles } from '../fleet/queries'
import {
  dayLabel,
  PartlyCreated,
  type Shift,
  useCreateShifts,
  useDeleteShift,
  useUpdateShift,
  useWorkers,
  WEEKDAYS,
  type Weekday,
} from './queries'

const FIELDS = ['userId', 'vehicleId', 'locationId', 'day', 'startTime', 'endTime', 'breaks']

interface BreakDraft {
  key: number
  startTime: string
  endTime: string
  isPaid: boolean
}

let nextBreakKey = 1

export function ShiftDialog({
  shift,
  depot,
  preset,
  onClose,
  onDone,
  onChangeDate,
}: {
  shift?: Shift
  depot: { id: string; name: string; timezone: string }
  /** A new shift's worker and day (from the grid cell it was added in). */
  preset?: { userId?: string; day?: Weekday }
  onClose: () => void
  onDone: (message: string) => void
  /** Opens "Change hours on a date…" for the shift being edited. */
  onChangeDate?: () => void
}) {
  const create = useCreateShifts()
  const update = useUpdateShift()
  const remove = useDeleteShift()
  const workers = useWorkers()
  const vehicles = useVehicles(1, depot.id, 100)
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const mutationError = shift ? update.error : create.error
  const partly = mutationError instanceof PartlyCreated ? mutationError : null
  const form = useFormState(
    () => ({
      userId: shift?.userId ?? preset?.userId ?? '',
      vehicleId: shift?.vehicleId ?? '',
      day: (shift ? [shift.day] : preset?.day ? [preset.day] : []) as Weekday[],
      startTime: shift?.startTime ?? '08:00',
      endTime: shift?.endTime ?? '16:30',
      breaks: (shift?.breaks ?? []).map(
        (b): BreakDraft => ({
          key: nextBreakKey++,
          startTime: b.startTime,
          endTime: b.endTime,
          isPaid: b.isPaid,
        }),
      ),
    }),
    {
      fields: FIELDS,
      submission: {
        error: partly ? partly.cause : mutationError,
        isPending: shift ? update.isPending : create.isPending,
      },
    },
  )
  const { values, setField, error } = form
  const { userId, vehicleId, day: days, startTime, endTime, breaks } = values
  const breakError = breakProblem(partly ? partly.cause : mutationError) ?? error('breaks')
  const workerList = workers.data?.users ?? []
  const vehicleList = vehicles.data?.vehicles ?? []
  // A shift's worker or vehicle may since have been deactivated or moved: keep it choosable.
  const workerOptions =
    shift && !workerList.some((w) => w.id === shift.userId) ? [shift.user, ...workerList] : workerList
  const vehicleOptions =
    shift && !vehicleList.some((v) => v.id === shift.vehicleId)
      ? [shift.vehicle, ...vehicleList]
      : vehicleList

  const submit = () => {
    const problems: Record<string, string> = {}
    if (!userId) problems.userId = 'Choose the worker'
    if (!vehicleId) problems.vehicleId = 'Choose the vehicle'
    if (days.length === 0) problems.day = 'Choose at least one weekday'
    if (!form.check(problems)) return
    const body = {
      userId,
      vehicleId,
      locationId: depot.id,
      startTime,
      endTime,
      breaks: breaks.map(({ startTime: start, endTime: end, isPaid }) => ({
        startTime: start,
        endTime: end,
        isPaid,
      })),
    }
    if (shift) {
      update.mutate(
        { id: shift.id, ...body, day: days[0] ?? shift.day },
        { onSuccess: () => onDone('Shift saved') },
      )
    } else {
      create.mutate(
        { ...body, days: WEEKDAYS.map((d) => d.value).filter((d) => days.includes(d)) },
        { onSuccess: (made) => onDone(made.length === 1 ? 'Shift added' : `${made.length} shifts added`) },
      )
    }
  }

  const setBreaks = (next: BreakDraft[]) => setField('breaks', next)
  const setBreak = (key: number, change: Partial<BreakDraft>) =>
    setBreaks(breaks.map((b) => (b.key === key ? { ...b, ...change } : b)))
  const inUse = (e: unknown) => e instanceof ApiError && (e.code === 'IN_USE' || e.code === 'SHIFT_IN_USE')

  if (confirmingDelete && shift) {
    return (
      <ConfirmDialog
        title={`Delete ${shift.user.name}’s ${dayLabel(shift.day)} shift?`}
        confirmLabel="Delete shift"
        pending={remove.isPending}
        error={remove.error}
        onClose={() => {
          remove.reset()
          setConfirmingDelete(false)
        }}
        onConfirm={() => remove.mutate(shift.id, { onSuccess: () => onDone('Shift deleted') })}
      >
        <p>
          {shift.startTime}–{shift.endTime} in {shift.vehicle.name}, breaks included. This cannot be undone.
        </p>
        {inUse(remove.error) && (
          <p>
            Jobs are still planned on this shift. Unassign them or assign them to another shift on the Jobs
            page (or the board), then delete it.
          </p>
        )}
      </ConfirmDialog>
    )
  }

  return (
    <FormDialog
      title={shift ? `Edit ${shift.user.name}’s ${dayLabel(shift.day)} shift` : 'Add shift'}
      description={`At ${depot.name}. Times are the depot’s wall clock (${depot.timezone}).`}
      wide
      onClose={onClose}
      onSubmit={submit}
      submitLabel={shift ? 'Save shift' : 'Add shift'}
      submitting={form.submitting}
      formError={form.formError}
      otherAction={
        shift && (
          <>
            <Button
              variant="danger"
              onClick={() => setConfirmingDelete(true)}
              style={onChangeDate ? undefined : { marginRight: 'auto' }}
            >
              Delete shift
            </Button>
            {onChangeDate && (
              <Button onClick={onChangeDate} style={{ marginRight: 'auto' }}>
                Change hours on a date…
              </Button>
            )}
          </>
        )
      }
      notice={
        partly && (
          <Banner tone="warning">
            Added for {partly.created.map(dayLabel).join(', ')}; the other days were not added. Fix what is
            shown below and save the remaining days.
          </Banner>
        )
      }
    >
      {inUse(partly ? partly.cause : mutationError) && (
        <Banner tone="info">
          The worker of a shift cannot change while jobs on it are assigned or in progress: unassign them
          first.
        </Banner>
      )}
      <div className="form-grid">
        <SelectField form={form} name="userId" label="Worker">
          <option value="">Choose a worker</option>
          {workerOptions.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </SelectField>
        <SelectField form={form} name="vehicleId" label="Vehicle">
          <option value="">Choose a vehicle</option>
          {vehicleOptions.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </SelectField>
        <fieldset className="choice-group span-2" aria-invalid={error('day') ? true : undefined}>
          <legend className="field-label">{shift ? 'Weekday' : 'Weekdays'}</legend>
          <div className="segmented">
            {WEEKDAYS.map((d) => (
              <label key={d.value}>
                <input
                  type={shift ? 'radio' : 'checkbox'}
                  name="weekday"
                  checked={days.includes(d.value)}
                  onChange={(e) =>
                    setField(
                      'day',
                      shift
                        ? [d.value]
                        : e.target.checked
                          ? [...days, d.value]
                          : days.filter((x) => x !== d.value),
                    )
                  }
                />
                {d.label}
              </label>
            ))}
          </div>
          {error('day') && <span className="field-error">{error('day')}</span>}
        </fieldset>
        <TextField form={form} name="startTime" label="Starts" type="time" />
        <TextField form={form} name="endTime" label="Ends" type="time" />
        <fieldset className="choice-group span-2" aria-invalid={breakError ? true : undefined}>
          <legend className="field-label">Breaks</legend>
          {breaks.length === 0 && <span className="muted">No breaks.</span>}
          {breaks.map((b, index) => (
            <div className="break-row" key={b.key}>
              <label>
                <span className="visually-hidden">Break {index + 1} starts</span>
                <input
                  className="input"
                  type="time"
                  value={b.startTime}
                  onChange={(e) => setBreak(b.key, { startTime: e.target.value })}
                />
              </label>
              <span aria-hidden="true">–</span>
              <label>
                <span className="visually-hidden">Break {index + 1} ends</span>
                <input
                  className="input"
                  type="time"
                  value={b.endTime}
                  onChange={(e) => setBreak(b.key, { endTime: e.target.value })}
                />
              </label>
              <label className="choice">
                <input
                  type="checkbox"
                  checked={b.isPaid}
                  onChange={(e) => setBreak(b.key, { isPaid: e.target.checked })}
                />
                <span>Paid</span>
              </label>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setBreaks(breaks.filter((x) => x.key !== b.key))}
                aria-label={`Remove break ${index + 1}`}
              >
                Remove
              </Button>
            </div>
          ))}
          <div>
            <Button
              size="sm"
              onClick={() =>
                setBreaks([
                  ...breaks,
                  { key: nextBreakKey++, startTime: '12:00', endTime: '12:30', isPaid: false },
                ])
              }
            >
              Add break
            </Button>
          </div>
          {breakError && <span className="field-error">{breakError}</span>}
        </fieldset>
      </div>
    </FormDialog>
  )
}

/** "Break 2 must lie within the shift (08:00–16:30)" from the API's `/body/breaks/1…` detail. */
function breakProblem(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined
  const detail = error.details.find((d) => d.path.startsWith('/body/breaks/'))
  if (!detail) return undefined
  const index = Number(detail.path.split('/')[3])
  return Number.isInteger(index) ? `Break ${index + 1} ${detail.message}` : `Breaks ${detail.message}`
}
