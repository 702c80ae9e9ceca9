// "Change hours on a date…": one date of a weekly shift worked at other hours, or not at all; the
// pattern holds on every other date. Lists the shift's changes from today, each restorable.
import { useState } from 'react'
import { todayIn } from '../../lib/time'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { FormDialog } from '../../ui/form-dialog'
import { CheckboxChoice, TextField } from '../../ui/form-fields'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { useFormState } from '../../ui/use-form-state'
import {
  dayLabel,
  type Shift,
  type ShiftDateChange,
  useChangeShiftDate,
  useRestoreShiftDate,
  useShiftDateChanges,
  WEEKDAYS,
} from './queries'

const weekdayOf = (date: string) => WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]?.value

/** The next date on or after `from` that falls on the shift's weekday. */
function nextDateOn(day: Shift['day'], from: string): string {
  let at = Date.parse(`${from}T00:00:00Z`)
  for (let i = 0; i < 7 && weekdayOf(new Date(at).toISOString().slice(0, 10)) !== day; i++) at += 86_400_000
  return new Date(at).toISOString().slice(0, 10)
}

const dateLabel = (date: string) =>
  new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`))

export function ShiftDateDialog({
  shift,
  timeZone,
  onClose,
}: {
  shift: Shift
  timeZone: string
  onClose: () => void
}) {
  const today = todayIn(timeZone)
  const changes = useShiftDateChanges(shift.id, today)
  const change = useChangeShiftDate()
  const restore = useRestoreShiftDate()
  const toast = useToast()
  const [restoring, setRestoring] = useState<ShiftDateChange | null>(null)
  const initial = {
    date: nextDateOn(shift.day, today),
    off: false,
    startTime: shift.startTime,
    endTime: shift.endTime,
  }
  const form = useFormState(initial, { fields: ['date', 'startTime', 'endTime', 'off'], submission: change })
  const { values } = form

  const submit = () => {
    const problems = {
      ...(!values.date
        ? { date: 'is required' }
        : weekdayOf(values.date) !== shift.day
          ? { date: `must be a ${dayLabel(shift.day)}: this shift is on ${dayLabel(shift.day)}s` }
          : {}),
    }
    if (!form.check(problems)) return
    change.mutate(
      {
        id: shift.id,
        date: values.date,
        ...(values.off ? { off: true } : { startTime: values.startTime, endTime: values.endTime }),
      },
      {
        onSuccess: () => {
          toast.success(
            values.off
              ? `No shift on ${dateLabel(values.date)}`
              : `${dateLabel(values.date)}: ${values.startTime}–${values.endTime}`,
          )
          form.reset(initial)
        },
      },
    )
  }

  return (
    <>
      <FormDialog
        title={`Change ${shift.user.name}’s ${dayLabel(shift.day)} hours on a date`}
        description={`The weekly pattern is ${shift.startTime}–${shift.endTime}; a change applies to one date only (${timeZone}). Breaks outside the new hours are left out that date.`}
        onClose={onClose}
        onSubmit={submit}
        submitLabel="Save change"
        submitting={form.submitting}
        formError={form.formError}
        wide
      >
        <section aria-labelledby="shift-dates-title">
          <h3 id="shift-dates-title" className="field-label">
            Changed dates
          </h3>
          {changes.error && !changes.data ? (
            <ErrorState error={changes.error} onRetry={() => changes.refetch()} />
          ) : changes.isPending ? (
            <LoadingState label="Loading changes…" />
          ) : changes.data.changes.length === 0 ? (
            <EmptyState icon="◷" title="Every coming date follows the pattern" />
          ) : (
            <ul className="shift-date-list" aria-label="Changed dates">
              {changes.data.changes.map((c) => (
                <li key={c.id}>
                  <span>
                    <strong>{dateLabel(c.date)}</strong> {c.off ? 'No shift' : `${c.startTime}–${c.endTime}`}
                  </span>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setRestoring(c)}
                    aria-label={`Restore the pattern on ${dateLabel(c.date)}`}
                  >
                    Restore
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <TextField form={form} name="date" label="Date" type="date" />
        <CheckboxChoice
          form={form}
          name="off"
          label="No shift that date"
          hint="The shift is cancelled for that date only."
        />
        {!values.off && (
          <div className="row">
            <TextField form={form} name="startTime" label="Start" type="time" step={900} />
            <TextField form={form} name="endTime" label="End" type="time" step={900} />
          </div>
        )}
      </FormDialog>
      {restoring && (
        <ConfirmDialog
          title={`Restore the pattern on ${dateLabel(restoring.date)}?`}
          confirmLabel="Restore pattern"
          tone="primary"
          pending={restore.isPending}
          error={restore.error}
          onClose={() => {
            restore.reset()
            setRestoring(null)
          }}
          onConfirm={() =>
            restore.mutate(
              { id: shift.id, date: restoring.date },
              {
                onSuccess: () => {
                  toast.success(`${dateLabel(restoring.date)} follows the pattern again`)
                  setRestoring(null)
                },
              },
            )
          }
        >
          <p>
            The shift is worked {shift.startTime}–{shift.endTime} that date again.
          </p>
        </ConfirmDialog>
      )}
    </>
  )
}
