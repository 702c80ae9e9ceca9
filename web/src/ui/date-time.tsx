import { useTimeZone } from '../app/time-zone'
import { formatDate, formatDateTime, formatRelative } from '../lib/time'

/**
 * An instant in the organisation's time zone, as a <time> element; `relative` shows "3 minutes ago"
 * with the exact time on hover.
 */
export function DateTime({
  value,
  relative = false,
  dateOnly = false,
  seconds = false,
  empty = '—',
}: {
  value: string | null | undefined
  relative?: boolean
  dateOnly?: boolean
  /** To the second (logs, where several events share a minute). */
  seconds?: boolean
  empty?: string
}) {
  const timeZone = useTimeZone()
  if (!value) return <span className="muted">{empty}</span>
  const exact = formatDateTime(value, timeZone, { seconds })
  return (
    <time dateTime={value} title={exact}>
      {relative ? formatRelative(value) : dateOnly ? formatDate(value, timeZone) : exact}
    </time>
  )
}
