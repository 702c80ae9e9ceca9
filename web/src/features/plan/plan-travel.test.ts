// A planned route's drives: each ends at the stop's arrival and lasts the plan's travel minutes (from
// the previous stop's end at the earliest), none to a job in progress, and one back to the start.
import { describe, expect, it } from 'vitest'
import { planTravelBars } from './plan-travel'
import type { PlanResult } from './queries'

type Route = PlanResult['routes'][number]
type Stop = Route['stops'][number]

const at = (hhmm: string) => `2026-12-07T${hhmm}:00.000Z`
const stop = (
  jobId: string,
  arrival: string,
  start: string,
  end: string,
  minutes: number,
  km: number,
): Stop => ({
  jobId,
  title: jobId,
  arrival: at(arrival),
  serviceStart: at(start),
  serviceEnd: at(end),
  travelKm: km,
  travelMinutes: minutes,
  lateMinutes: 0,
  load: [],
})
const route = (stops: Stop[], back = 0): Route =>
  ({
    shiftId: 's1',
    user: { id: 'u1', name: 'Ana', colour: 1 },
    vehicle: { id: 'v1', name: 'Van' },
    locationId: 'l1',
    start: at('08:00'),
    end: at('16:00'),
    breaks: [],
    stops,
    returnTravelKm: back === 0 ? 0 : 9.5,
    returnTravelMinutes: back,
    totals: { jobs: stops.length, km: 0, hours: 0, cost: 0 },
  }) as unknown as Route

describe('the drives of a planned route', () => {
  it('end at each arrival, start the drive earlier, and go back to the start after the last stop', () => {
    const bars = planTravelBars(
      route(
        [stop('Boiler', '08:20', '08:30', '09:30', 20, 12.3), stop('Tap', '09:45', '09:45', '10:15', 15, 6)],
        25,
      ),
    )
    expect(bars.map((b) => [b.start, b.end, b.minutes, b.short])).toEqual([
      [Date.parse(at('08:00')), Date.parse(at('08:20')), '20 min', false],
      [Date.parse(at('09:30')), Date.parse(at('09:45')), '15 min', false],
      [Date.parse(at('10:15')), Date.parse(at('10:40')), '25 min', false],
    ])
    expect(bars[0]?.description).toBe('20 min drive, 12.3 km, the start to Boiler')
    expect(bars[1]?.description).toBe('15 min drive, 6 km, Boiler to Tap')
    expect(bars[2]?.description).toBe('25 min drive, 9.5 km, Tap back to the start')
  })

  it('draws no drive to the job in progress, and none back for a route that ends at its last job', () => {
    const inProgress = { ...stop('Boiler', '10:00', '10:00', '11:00', 0, 0), inProgress: true }
    const bars = planTravelBars(route([inProgress, stop('Tap', '11:10', '11:10', '11:40', 10, 4)]))
    expect(bars.map((b) => b.description)).toEqual(['10 min drive, 4 km, Boiler to Tap'])
  })

  it('marks a drive longer than the gap before the stop as short', () => {
    const bars = planTravelBars(route([stop('Boiler', '08:10', '08:10', '09:00', 20, 10)]))
    expect(bars[0]).toMatchObject({ start: Date.parse(at('08:00')), short: true })
  })
})
