// Assign (or re-assign, or re-schedule) a job: the worker, optionally one of their shifts, and the
// visit's day and times on the depot's wall clock. The end defaults to the start plus the job's
// service time.
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api/client'
import { todayIn, zonedToUtc } from '../../lib/time'
import { Field } from '../../ui/form'
import { FormDialog } from '../../ui/form-dialog'
import { TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
import { dayLabel, type Shift, useWorkers } from '../shifts/queries'
import { toZonedInput } from './job-time'
import { type JobDetail, useAssignJob } from './queries'

const FIELDS = ['userId', 'shiftId', 'scheduledStart', 'scheduledEnd']

function addMinutes(time: string, minutes: number): string {
  const [h = 0, m = 0] = time.split(':').map(Number)
  const total = Math.min(23 * 60 + 59, h * 60 + m + minutes)
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`
}

const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']

function shiftOption(s: Shift) {
  return (
    <option key={s.id} value={s.id}>
      {dayLabel(s.day)} {s.startTime}–{s.endTime} · {s.vehicle.name} · {s.location.name}
    </option>
  )
}

function useWorkerShifts(userId: string) {
  const query = { page: 1, limit: 100, userId }
  return useQuery({
    queryKey: ['shifts', query],
    queryFn: () => unwrap(api.GET('/shifts', { params: { query } })),
    enabled: Boolean(userId),
  })
}

export function AssignDialog({
  job,
  timeZone,
  onClose,
  onDone,
}: {
  job: JobDetail
  timeZone: string
  onClose: () => void
  onDone: () => void
}) {
  const assign = useAssignJob()
  const workers = useWorkers()
  const start = toZonedInput(job.scheduledStart ?? job.earliestStart, timeZone)
  const form = useFormState(
    () => ({
      userId: job.assignedUserId ?? '',
      shiftId: job.shiftId ?? '',
      date: start ? start.slice(0, 10) : todayIn(timeZone),
      startTime: start ? start.slice(11, 16) : '09:00',
      // The end's time of day, named for the instant the server checks.
      scheduledEnd: job.scheduledEnd
        ? toZonedInput(job.scheduledEnd, timeZone).slice(11, 16)
        : addMinutes(start ? start.slice(11, 16) : '09:00', Math.round(job.serviceDuration / 60)),
    }),
    { fields: FIELDS, submission: assign },
  )
  const { values, setField } = form
  const { userId, shiftId, date, startTime, scheduledEnd: endTime } = values
  const shifts = useWorkerShifts(userId)
  const weekday = date ? WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()] : undefined
  const allShifts = shifts.data?.shifts ?? []
  const dayShifts = allShifts.filter((s) => s.day === weekday)
  const otherShifts = allShifts.filter((s) => s.day !== weekday)
  // The worker's one shift on the visit's day is the visit's, until the dispatcher chooses otherwise.
  const [shiftChosen, setShiftChosen] = useState(Boolean(job.shiftId))
  const onlyShift = dayShifts.length === 1 ? (dayShifts[0]?.id ?? '') : ''
  const visitShift = shiftChosen ? shiftId : onlyShift
  const workerList = workers.data?.users ?? []
  const options =
    job.assignedUser && !workerList.some((w) => w.id === job.assignedUser?.id)
      ? [job.assignedUser, ...workerList]
      : workerList

  const submit = () => {
    const problems: Record<string, string> = {}
    if (!userId) problems.userId = 'Choose the worker'
    // The day is the form's own: the server names the instant it makes (`scheduledStart`).
    if (!date) problems.date = 'Choose the day'
    if (!form.check(problems)) return
    assign.mutate(
      {
        id: job.id,
        userId,
        shiftId: visitShift || null,
        scheduledStart: zonedToUtc(date, startTime, timeZone).toISOString(),
        scheduledEnd: zonedToUtc(date, endTime, timeZone).toISOString(),
      },
      { onSuccess: onDone },
    )
  }

  return (
    <FormDialog
      title={job.status === 'ASSIGNED' ? `Re-assign ${job.title}` : `Assign ${job.title}`}
      description={`The visit, on the wall clock of ${timeZone}.`}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Assign job"
      submitting={form.submitting}
      formError={form.formError}
    >
      <Field label="Worker" error={form.error('userId')}>
        {(control) => (
          <select
            {...control}
            className="select"
            value={userId}
            onChange={(e) => {
              setField('userId', e.target.value)
              setField('shiftId', '')
              setShiftChosen(false)
            }}
          >
            <option value="">Choose a worker</option>
            {options.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Shift"
        optional
        hint="The shift (and so the vehicle) the visit is on"
        error={form.error('shiftId')}
      >
        {(control) => (
          <select
            {...control}
            className="select"
            disabled={!userId}
            value={visitShift}
            onChange={(e) => {
              setField('shiftId', e.target.value)
              setShiftChosen(true)
            }}
          >
            <option value="">No shift</option>
            {dayShifts.map(shiftOption)}
            {otherShifts.length > 0 && <optgroup label="Other days">{otherShifts.map(shiftOption)}</optgroup>}
          </select>
        )}
      </Field>
      <TextField form={form} name="date" label="Day" type="date" />
      <div className="form-grid">
        <Field label="Starts" error={form.error('scheduledStart')}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="time"
              value={startTime}
              onChange={(e) => {
                setField('scheduledEnd', addMinutes(e.target.value, Math.round(job.serviceDuration / 60)))
                setField('startTime', e.target.value)
              }}
            />
          )}
        </Field>
        <TextField form={form} name="scheduledEnd" label="Ends" type="time" />
      </div>
    </FormDialog>
  )
}
