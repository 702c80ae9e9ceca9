// The drives of a planned route as the board draws its own (board-views.ts travelBars): a thin bar
// ending where the worker arrives at each stop, and one back to the start after the last. The plan
// says each stop's arrival and the minutes and km from the stop before, from the optimiser's travel
// model, so nothing is estimated here.
import { duration } from '../board/board-model'
import type { TimelineTravel } from '../board/timeline'
import type { PlanResult } from './queries'
import { formatNumber } from './wording'

type PlannedRoute = PlanResult['routes'][number]

const ms = (iso: string) => Date.parse(iso)
const MINUTE = 60_000

export function planTravelBars(route: PlannedRoute): TimelineTravel[] {
  const bars: TimelineTravel[] = []
  let leftAt = ms(route.start)
  let from = 'the start'
  for (const stop of route.stops) {
    const arrive = ms(stop.arrival)
    const drive = stop.travelMinutes * MINUTE
    // A job in progress is where the worker already is: no drive to it.
    if (drive > 0 && !stop.inProgress) {
      bars.push({
        id: `${from}>${stop.jobId}`,
        start: Math.max(leftAt, arrive - drive),
        end: arrive,
        minutes: duration(Math.round(stop.travelMinutes * 60)),
        description: `${duration(Math.round(stop.travelMinutes * 60))} drive, ${formatNumber(stop.travelKm)} km, ${from} to ${stop.title}`,
        short: arrive - leftAt < drive,
      })
    }
    leftAt = ms(stop.serviceEnd)
    from = stop.title
  }
  const last = route.stops.at(-1)
  if (last && route.returnTravelMinutes > 0) {
    const drive = route.returnTravelMinutes * MINUTE
    bars.push({
      id: `${last.jobId}>end`,
      start: leftAt,
      end: leftAt + drive,
      minutes: duration(Math.round(route.returnTravelMinutes * 60)),
      description: `${duration(Math.round(route.returnTravelMinutes * 60))} drive, ${formatNumber(route.returnTravelKm)} km, ${last.title} back to the start`,
      short: false,
    })
  }
  return bars
}
