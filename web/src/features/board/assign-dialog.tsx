// The keyboard (and precise) way to assign: pick the worker's row and a start time; the visit lasts
// the job's service duration. Also used to move an assigned job to another row or time. The server's
// check of the chosen slot is shown as it changes: a HARD problem the server will refuse, and SOFT
// ones (overtime, a window missed) that need "Assign anyway" ticked first.
import { useState } from 'react'
import { zonedToUtc } from '../../lib/time'
import { Badge } from '../../ui/badge'
import { Field } from '../../ui/form'
import { FormDialog } from '../../ui/form-dialog'
import { useFormState } from '../../ui/use-form-state'
import { windowTypeLabel } from '../jobs/job-labels'
import {
  awayWords,
  type BoardJob,
  type BoardRow,
  clock,
  duration,
  jobsOfRow,
  suggestStart,
} from './board-model'
import { type Slot, slotAssignment, useAssignJob, useAssignmentCheck } from './queries'
import { windowText } from './tray'

/**
 * Why a row takes no work this day ("Away all day (Holiday: Family holiday)"); null when it does. The
 * server refuses WORKER_ABSENT there, so the row is shown, disabled, with the reason.
 */
export function awayText(row: BoardRow): string | null {
  return row.absence ? awayWords(row.absence) : null
}

/** A row that works: its hours, and the part of them its worker is away ("Away 13:00–17:00 (Training)"). */
function rowHours(row: BoardRow, timeZone: string): string {
  const hours = `${clock(row.start, timeZone)}–${clock(row.end, timeZone)}`
  return row.partAbsences.length === 0
    ? `(${hours})`
    : `(${hours}) — ${row.partAbsences.map(awayWords).join('; ')}`
}

export function AssignDialog({
  job,
  rows,
  jobs,
  date,
  timeZone,
  onClose,
  onAssigned,
}: {
  job: BoardJob
  rows: BoardRow[]
  /** Every job of the board, to suggest a free time. */
  jobs: BoardJob[]
  date: string
  timeZone: string
  onClose: () => void
  onAssigned: (message: string) => void
}) {
  const assign = useAssignJob()
  const firstRow = rows.find((r) => r.shiftId === job.shiftId) ?? rows.find((r) => !r.absence) ?? rows[0]
  const startFor = (row: BoardRow | undefined) =>
    job.scheduledStart && row?.shiftId === job.shiftId
      ? clock(job.scheduledStart, timeZone)
      : row
        ? clock(suggestStart(row, jobsOfRow(row, jobs), job), timeZone)
        : '09:00'
  const form = useFormState(() => ({ shiftId: firstRow?.shiftId ?? '', time: startFor(firstRow) }), {
    fields: ['userId', 'shiftId', 'scheduledStart', 'scheduledEnd'],
    submission: assign,
  })
  const { shiftId, time } = form.values
  const row = rows.find((r) => r.shiftId === shiftId)
  const valid = /^\d{2}:\d{2}$/.test(time)
  const start = valid ? zonedToUtc(date, time, timeZone).getTime() : null
  const end = start === null ? null : start + job.serviceDuration * 1000
  const moving = job.status === 'ASSIGNED'
  const slot: Slot | null =
    row && start !== null && end !== null
      ? { jobId: job.id, userId: row.user.id, shiftId: row.shiftId, start, end }
      : null
  const check = useAssignmentCheck(slot)
  const problems = slot && !check.isError ? (check.data ?? []) : []
  const hard = problems.some((p) => p.severity === 'HARD')
  const soft = !hard && problems.some((p) => p.severity === 'SOFT')
  // "Assign anyway" holds for the slot it was ticked on.
  const slotKey = slot ? `${slot.shiftId}|${slot.start}` : ''
  const [acceptedFor, setAcceptedFor] = useState<string | null>(null)
  const accepted = soft && acceptedFor === slotKey

  const submit = () => {
    if (!row || !slot || (soft && !accepted)) return
    assign.mutate(
      { id: job.id, assignment: slotAssignment(slot) },
      { onSuccess: () => onAssigned(`${job.title} assigned to ${row.user.name} at ${time}`) },
    )
  }

  return (
    <FormDialog
      title={moving ? `Reassign ${job.title}` : `Assign ${job.title}`}
      description={`Window ${windowText(job, timeZone)} (${windowTypeLabel(job.timeWindowType).toLowerCase()}) · ${duration(job.serviceDuration)} on site`}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={moving ? 'Move' : 'Assign'}
      submitting={form.submitting}
      submitDisabled={!row || Boolean(row.absence) || !valid || (soft && !accepted)}
      formError={form.formError}
    >
      {rows.length === 0 ? (
        <p>Nobody works this day: there is no shift to assign the job to.</p>
      ) : (
        <>
          <Field label="Worker and vehicle" error={form.error('userId') ?? form.error('shiftId')}>
            {(control) => (
              <select
                {...control}
                className="select"
                value={shiftId}
                onChange={(e) => {
                  form.setField('shiftId', e.target.value)
                  form.setField('time', startFor(rows.find((r) => r.shiftId === e.target.value)))
                }}
              >
                {rows.map((r) => {
                  const away = awayText(r)
                  return (
                    <option key={r.shiftId} value={r.shiftId} disabled={away !== null}>
                      {away
                        ? `${r.user.name} · ${r.vehicle.name} — ${away}`
                        : `${r.user.name} · ${r.vehicle.name} ${rowHours(r, timeZone)}`}
                    </option>
                  )
                })}
              </select>
            )}
          </Field>
          <Field
            label="Start time"
            error={form.error('scheduledStart') ?? form.error('scheduledEnd')}
            hint={end === null ? `In ${timeZone}` : `Ends at ${clock(end, timeZone)} · ${timeZone}`}
          >
            {(control) => (
              <input {...control} className="input" type="time" step={900} required {...form.text('time')} />
            )}
          </Field>
          <div className="assign-problems" aria-live="polite">
            {problems.length > 0 && (
              <ul aria-label="Problems with this time">
                {problems.map((problem) => (
                  <li key={problem.code}>
                    <Badge tone={problem.severity === 'HARD' ? 'red' : 'amber'}>
                      {problem.severity === 'HARD' ? 'Not allowed' : 'Warning'}
                    </Badge>{' '}
                    {problem.message}
                  </li>
                ))}
              </ul>
            )}
            {soft && (
              <label className="choice">
                <input
                  type="checkbox"
                  checked={accepted}
                  onChange={(e) => setAcceptedFor(e.target.checked ? slotKey : null)}
                />
                <span>
                  {moving ? 'Move anyway' : 'Assign anyway'}
                  <span className="choice-hint">
                    The job is {moving ? 'moved' : 'assigned'} with the warning above.
                  </span>
                </span>
              </label>
            )}
          </div>
        </>
      )}
    </FormDialog>
  )
}
