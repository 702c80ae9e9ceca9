// Random field-service models with every feature the engine supports (breaks, shift windows,
// HARD and SOFT windows, several capacity dimensions, skills, priorities, END_AT_LAST_JOB, speed
// factors, pinned and location-less jobs): for the property tests and the scale benchmark.
import type { Coordinates, JobSpec, Priority, RouteSpec, RoutingModel } from './model.js'
import { Random } from './random.js'

export interface GenerateOptions {
  jobs: number
  routes: number
  dimensions?: number
  seed?: number
  /** Share of jobs pinned to a route (KEEP_ASSIGNED), default 0.05. */
  pinnedShare?: number
}

const SKILLS = ['ladder', 'gas', 'electric']
const HOUR = 3600

export function generateModel(options: GenerateOptions): RoutingModel {
  const rng = new Random(options.seed ?? 1)
  const dims = options.dimensions ?? 2
  const locations: Coordinates[] = []
  const point = () => {
    locations.push({ lat: 52.45 + rng.next() * 0.12, lng: 13.3 + rng.next() * 0.2 })
    return locations.length - 1
  }
  const depots = [point(), point()]
  const routes: RouteSpec[] = Array.from({ length: options.routes }, (_, r) => {
    const open = (7 + rng.int(3)) * HOUR
    const close = open + (6 + rng.int(4)) * HOUR
    const breakStart = open + 4 * HOUR + rng.int(4) * 900
    return {
      id: `route-${r}`,
      workerId: `worker-${r}`,
      vehicleId: `vehicle-${r}`,
      start: rng.next() < 0.7 ? depots[r % 2]! : point(),
      end: rng.next() < 0.8 ? 'RETURN_TO_ORIGIN' : 'END_AT_LAST_JOB',
      window: [open, close],
      breaks: rng.next() < 0.7 ? [{ start: breakStart, end: breakStart + 1800, paid: rng.next() < 0.3 }] : [],
      capacity: Array.from({ length: dims }, (_, d) => (d === 0 ? 30 + rng.int(40) : rng.int(6))),
      skills: SKILLS.filter(() => rng.next() < 0.5),
      fixedCost: rng.int(3) * 20,
      costPerKm: 0.3 + rng.next() * 0.4,
      costPerHour: 20 + rng.int(20),
      speedFactor: 0.8 + rng.next() * 0.4,
    }
  })
  const priorities: Priority[] = ['HIGH', 'NORMAL', 'NORMAL', 'NORMAL', 'LOW']
  const jobs: JobSpec[] = Array.from({ length: options.jobs }, (_, j) => {
    const windowed = rng.next()
    const earliest = (7 + rng.int(8)) * HOUR + rng.int(4) * 900
    const service = (10 + rng.int(50)) * 60
    const job: JobSpec = {
      id: `job-${j}`,
      location: rng.next() < 0.02 ? null : point(),
      serviceSeconds: service,
      window: windowed < 0.3 ? null : [earliest, earliest + service + (1 + rng.int(4)) * HOUR],
      windowType: rng.next() < 0.25 ? 'SOFT' : 'HARD',
      priority: priorities[rng.int(priorities.length)]!,
      demand: Array.from({ length: dims }, (_, d) => (d === 0 ? 1 + rng.int(5) : rng.next() < 0.2 ? 1 : 0)),
      skills: rng.next() < 0.2 ? [SKILLS[rng.int(SKILLS.length)]!] : [],
    }
    if (options.routes > 0 && rng.next() < (options.pinnedShare ?? 0.05))
      job.pinnedRoute = rng.int(options.routes)
    return job
  })
  return { dimensions: dims, locations, routes, jobs, options: { latenessPenaltyPerMinute: 2 } }
}
