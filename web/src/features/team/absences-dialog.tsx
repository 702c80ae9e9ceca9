// A team member's absences: the upcoming ones (and one under way), each removable after a confirm,
// and a form to add one — whole days, or a few hours of one day. Dates are read in the calendar of
// the depot of each of the member's shifts (the server's rule); today is the organisation's today.
import { useState } from 'react'
import { useTimeZone } from '../../app/time-zone'
import { todayIn } from '../../lib/time'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { FormDialog } from '../../ui/form-dialog'
import { CheckboxChoice, SelectField, TextField } from '../../ui/form-fields'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { useFormState } from '../../ui/use-form-state'
import {
  ABSENCE_REASONS,
  type Absence,
  type AbsenceReason,
  absenceReasonLabel,
  type User,
  useAbsences,
  useCreateAbsence,
  useDeleteAbsence,
} from './queries'

const FIELDS = ['startDate', 'endDate', 'reason', 'startTime', 'endTime', 'note']

/** "Mon 21 Dec – Thu 24 Dec", "Wed 2 Dec, 09:00–11:30": dates as the calendar days they are. */
export function describeAbsence(absence: Pick<Absence, 'startDate' | 'endDate' | 'startTime' | 'endTime'>) {
  const day = (date: string) =>
    new Intl.DateTimeFormat('en-GB', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    }).format(new Date(`${date}T00:00:00Z`))
  if (absence.startTime) return `${day(absence.startDate)}, ${absence.startTime}–${absence.endTime}`
  return absence.startDate === absence.endDate
    ? day(absence.startDate)
    : `${day(absence.startDate)} – ${day(absence.endDate)}`
}

export function AbsencesDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const today = todayIn(useTimeZone())
  const absences = useAbsences(user.id, today)
  const create = useCreateAbsence()
  const remove = useDeleteAbsence()
  const toast = useToast()
  const [removing, setRemoving] = useState<Absence | null>(null)
  const initial = {
    startDate: today,
    endDate: today,
    reason: 'HOLIDAY' as AbsenceReason,
    partOfDay: false,
    startTime: '09:00',
    endTime: '12:00',
    note: '',
  }
  const form = useFormState(initial, { fields: FIELDS, submission: create })
  const { values } = form

  const submit = () => {
    const problems = {
      ...(!values.startDate ? { startDate: 'is required' } : {}),
      ...(!values.partOfDay && !values.endDate ? { endDate: 'is required' } : {}),
    }
    if (!form.check(problems)) return
    const note = values.note.trim()
    create.mutate(
      {
        userId: user.id,
        startDate: values.startDate,
        endDate: values.partOfDay ? values.startDate : values.endDate,
        reason: values.reason,
        ...(values.partOfDay ? { startTime: values.startTime, endTime: values.endTime } : {}),
        ...(note ? { note } : {}),
      },
      {
        onSuccess: ({ absence }) => {
          toast.success(`${absenceReasonLabel(absence.reason)} added for ${user.name}`)
          form.reset(initial)
        },
      },
    )
  }

  return (
    <>
      <FormDialog
        title={`${user.name}’s absences`}
        description="While away, their shifts are left out of plans, the board marks them absent and jobs cannot be assigned to them."
        onClose={onClose}
        onSubmit={submit}
        submitLabel="Add absence"
        submitting={form.submitting}
        formError={form.formError}
        wide
      >
        <section aria-labelledby="absences-upcoming">
          <h3 id="absences-upcoming" className="field-label">
            Upcoming
          </h3>
          {absences.error && !absences.data ? (
            <ErrorState error={absences.error} onRetry={() => absences.refetch()} />
          ) : absences.isPending ? (
            <LoadingState label="Loading absences…" />
          ) : absences.data.absences.length === 0 ? (
            <EmptyState icon="☀" title="No absences coming up" />
          ) : (
            <ul className="absence-list" aria-label={`Absences of ${user.name}`}>
              {absences.data.absences.map((absence) => (
                <li key={absence.id}>
                  <span className="stack" style={{ gap: 0 }}>
                    <strong>{absenceReasonLabel(absence.reason)}</strong>
                    <span>{describeAbsence(absence)}</span>
                    {absence.note && <span className="muted">{absence.note}</span>}
                  </span>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setRemoving(absence)}
                    aria-label={`Remove ${absenceReasonLabel(absence.reason).toLowerCase()} ${describeAbsence(absence)}`}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <h3 className="field-label">Add an absence</h3>
        <SelectField form={form} name="reason" label="Reason">
          {ABSENCE_REASONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </SelectField>
        <CheckboxChoice
          form={form}
          name="partOfDay"
          label="Part of one day"
          hint="Away for a few hours only: the rest of the shift is worked."
        />
        <div className="row">
          <TextField
            form={form}
            name="startDate"
            label={values.partOfDay ? 'Date' : 'First day'}
            type="date"
          />
          {!values.partOfDay && <TextField form={form} name="endDate" label="Last day" type="date" />}
        </div>
        {values.partOfDay && (
          <div className="row">
            <TextField form={form} name="startTime" label="From" type="time" step={900} />
            <TextField form={form} name="endTime" label="Until" type="time" step={900} />
          </div>
        )}
        <TextField form={form} name="note" label="Note" optional maxLength={500} />
      </FormDialog>
      {removing && (
        <ConfirmDialog
          title={`Remove ${user.name}’s ${absenceReasonLabel(removing.reason).toLowerCase()}?`}
          confirmLabel="Remove absence"
          pending={remove.isPending}
          error={remove.error}
          onClose={() => {
            remove.reset()
            setRemoving(null)
          }}
          onConfirm={() =>
            remove.mutate(
              { userId: user.id, absenceId: removing.id },
              {
                onSuccess: () => {
                  toast.success('Absence removed')
                  setRemoving(null)
                },
              },
            )
          }
        >
          <p>
            {describeAbsence(removing)}: {user.name} is expected at work again, and can be planned and
            assigned jobs on those days.
          </p>
        </ConfirmDialog>
      )}
    </>
  )
}
