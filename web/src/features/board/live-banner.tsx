// Over the board, today, when the forecast says stops will start near the end of their window or
// miss it: how many, and Re-plan rest of day (replan-dialog.tsx).
import { useState } from 'react'
import { Button } from '../../ui/button'
import { type LiveShift, riskCounts, riskSummary } from './live-model'
import { ReplanDialog } from './replan-dialog'

export function LiveBanner({
  shifts,
  date,
  locationId,
  timeZone,
}: {
  shifts: readonly LiveShift[]
  date: string
  locationId: string | undefined
  timeZone: string
}) {
  const [replanning, setReplanning] = useState(false)
  const counts = riskCounts(shifts)
  const summary = riskSummary(counts)
  return (
    <>
      {summary && (
        <section
          className={`banner ${counts.late > 0 ? 'banner-danger' : 'banner-warning'} live-banner`}
          aria-label="Stops at risk"
        >
          <div className="row">
            <span aria-live="polite">
              <strong className="banner-title">{summary}</strong>{' '}
              <span>— forecast from where each worker is now.</span>
            </span>
            <Button variant="primary" onClick={() => setReplanning(true)}>
              Re-plan rest of day
            </Button>
          </div>
        </section>
      )}
      {/* Kept open once started, even if the risk clears on a refresh while it runs. */}
      {replanning && (
        <ReplanDialog
          date={date}
          locationId={locationId}
          timeZone={timeZone}
          onClose={() => setReplanning(false)}
        />
      )}
    </>
  )
}
