// The week grid: rows are workers, columns weekdays, and each shift a block with its hours and
// vehicle over a bar of the shift with its breaks shaded (paid lighter than unpaid).
import { dayLabel, type Shift, WEEKDAYS, type Weekday } from './queries'

const minutes = (time: string) => {
  const [hours = 0, mins = 0] = time.split(':').map(Number)
  return hours * 60 + mins
}

function hoursWorked(shift: Shift): string {
  const unpaid = shift.breaks
    .filter((b) => !b.isPaid)
    .reduce((sum, b) => sum + minutes(b.endTime) - minutes(b.startTime), 0)
  const total = minutes(shift.endTime) - minutes(shift.startTime) - unpaid
  const h = Math.floor(total / 60)
  const m = total % 60
  return m === 0 ? `${h} h` : `${h} h ${m} min`
}

function ShiftBlock({ shift, onOpen }: { shift: Shift; onOpen: (shift: Shift) => void }) {
  const start = minutes(shift.startTime)
  const length = Math.max(1, minutes(shift.endTime) - start)
  const breaks = shift.breaks
    .map((b) => `${b.startTime}–${b.endTime} ${b.isPaid ? 'paid' : 'unpaid'}`)
    .join(', ')
  return (
    // The visible text is the start of the name; who, which day and the breaks are read out too.
    <button
      type="button"
      className="shift-block"
      onClick={() => onOpen(shift)}
      title={breaks ? `Breaks: ${breaks}` : 'No breaks'}
    >
      <span className="visually-hidden">
        {shift.user.name}, {dayLabel(shift.day)}:{' '}
      </span>
      <span className="shift-block-time">
        {shift.startTime}–{shift.endTime}
      </span>{' '}
      <span className="shift-block-vehicle">{shift.vehicle.name}</span>{' '}
      <span className="shift-bar" aria-hidden="true">
        {shift.breaks.map((b) => (
          <span
            key={b.id}
            className={b.isPaid ? 'shift-break shift-break-paid' : 'shift-break'}
            style={{
              left: `${((minutes(b.startTime) - start) / length) * 100}%`,
              width: `${((minutes(b.endTime) - minutes(b.startTime)) / length) * 100}%`,
            }}
          />
        ))}
      </span>
      <span className="shift-block-meta">
        {hoursWorked(shift)}
        {shift.breaks.length > 0 && ` · ${shift.breaks.length} break${shift.breaks.length === 1 ? '' : 's'}`}
      </span>
      {breaks && <span className="visually-hidden">, breaks {breaks}</span>}
    </button>
  )
}

export function WeekGrid({
  depotName,
  shifts,
  onOpen,
  onAdd,
}: {
  depotName: string
  shifts: Shift[]
  onOpen: (shift: Shift) => void
  onAdd: (userId: string, day: Weekday) => void
}) {
  const workers = new Map<string, Shift['user']>()
  for (const shift of shifts) workers.set(shift.userId, shift.user)
  const rows = [...workers.values()].sort((a, b) => a.name.localeCompare(b.name))
  const cell = (userId: string, day: Weekday) =>
    shifts
      .filter((s) => s.userId === userId && s.day === day)
      .sort((a, b) => a.startTime.localeCompare(b.startTime))

  return (
    <div className="table-wrap week-grid-wrap">
      <table className="week-grid" aria-label={`Week of shifts at ${depotName}`}>
        <thead>
          <tr>
            <th scope="col">Worker</th>
            {WEEKDAYS.map((d) => (
              <th scope="col" key={d.value}>
                <abbr title={d.label}>{d.short}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((worker) => (
            <tr key={worker.id}>
              <th scope="row">
                <span className="week-grid-worker">{worker.name}</span>
              </th>
              {WEEKDAYS.map((d) => {
                const here = cell(worker.id, d.value)
                return (
                  <td key={d.value}>
                    {here.map((shift) => (
                      <ShiftBlock key={shift.id} shift={shift} onOpen={onOpen} />
                    ))}
                    {here.length === 0 && (
                      <button
                        type="button"
                        className="shift-add"
                        onClick={() => onAdd(worker.id, d.value)}
                        aria-label={`Add a ${d.label} shift for ${worker.name}`}
                      >
                        +
                      </button>
                    )}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
