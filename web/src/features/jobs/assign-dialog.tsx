// Assign (or re-assign, or re-schedule) a job: the worker, optionally one of their shifts, and the
// visit's day and times on the depot's wall clock. The end defaults to the start plus the job's
// service time.
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api/client'
import { todayIn, zonedToUtc } from '../../lib/time'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field, FormError, serverErrors } from '../../ui/form'
import { dayLabel, useWorkers } from '../shifts/queries'
import { toZonedInput } from './job-time'
import { type JobDetail, useAssignJob } from './queries'

const FIELDS = ['userId', 'shiftId', 'scheduledStart', 'scheduledEnd']

function addMinutes(time: string, minutes: number): string {
  const [h = 0, m = 0] = time.split(':').map(Number)
  const total = Math.min(23 * 60 + 59, h * 60 + m + minutes)
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`
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
  const [userId, setUserId] = useState(job.assignedUserId ?? '')
  const [shiftId, setShiftId] = useState(job.shiftId ?? '')
  const [date, setDate] = useState(start ? start.slice(0, 10) : todayIn(timeZone))
  const [startTime, setStartTime] = useState(start ? start.slice(11, 16) : '09:00')
  const [endTime, setEndTime] = useState(
    job.scheduledEnd
      ? toZonedInput(job.scheduledEnd, timeZone).slice(11, 16)
      : addMinutes(start ? start.slice(11, 16) : '09:00', Math.round(job.serviceDuration / 60)),
  )
  const [local, setLocal] = useState<Record<string, string>>({})
  const shifts = useWorkerShifts(userId)
  const errors = serverErrors(assign.error, FIELDS)
  const error = (field: string) => local[field] ?? errors.fields[field]
  const workerList = workers.data?.users ?? []
  const options =
    job.assignedUser && !workerList.some((w) => w.id === job.assignedUser?.id)
      ? [job.assignedUser, ...workerList]
      : workerList

  const submit = () => {
    const problems: Record<string, string> = {}
    if (!userId) problems.userId = 'Choose the worker'
    if (!date) problems.scheduledStart = 'Choose the day'
    setLocal(problems)
    if (Object.keys(problems).length > 0) return
    assign.mutate(
      {
        id: job.id,
        userId,
        shiftId: shiftId || null,
        scheduledStart: zonedToUtc(date, startTime, timeZone).toISOString(),
        scheduledEnd: zonedToUtc(date, endTime, timeZone).toISOString(),
      },
      { onSuccess: onDone },
    )
  }

  return (
    <Dialog
      title={job.status === 'ASSIGNED' ? `Re-assign ${job.title}` : `Assign ${job.title}`}
      description={`The visit, on the wall clock of ${timeZone}.`}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={assign.isPending}>
            Assign job
          </Button>
        </>
      }
    >
      <FormError message={errors.form} />
      <Field label="Worker" error={error('userId')}>
        {(control) => (
          <select
            {...control}
            className="select"
            value={userId}
            onChange={(e) => {
              setUserId(e.target.value)
              setShiftId('')
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
        error={error('shiftId')}
      >
        {(control) => (
          <select
            {...control}
            className="select"
            value={shiftId}
            onChange={(e) => setShiftId(e.target.value)}
            disabled={!userId}
          >
            <option value="">No shift</option>
            {(shifts.data?.shifts ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {dayLabel(s.day)} {s.startTime}–{s.endTime} · {s.vehicle.name} · {s.location.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Day"
        error={error('scheduledStart') && !errors.fields.scheduledStart ? error('scheduledStart') : undefined}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            type="date"
            value={date}
            onChange={(e) => setDate(e.target.value)}
          />
        )}
      </Field>
      <div className="form-grid">
        <Field label="Starts" error={errors.fields.scheduledStart}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="time"
              value={startTime}
              onChange={(e) => {
                setEndTime(addMinutes(e.target.value, Math.round(job.serviceDuration / 60)))
                setStartTime(e.target.value)
              }}
            />
          )}
        </Field>
        <Field label="Ends" error={errors.fields.scheduledEnd}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="time"
              value={endTime}
              onChange={(e) => setEndTime(e.target.value)}
            />
          )}
        </Field>
      </div>
    </Dialog>
  )
}
