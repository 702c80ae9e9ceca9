// The routes and jobs of a day as a plan reads them (day-inputs.ts loads them, from-now.ts moves
// them to the plan's instant, optimiser-model.ts hands them to the optimiser).
import type { DayAbsence } from '../shifts/shift-days.js'
import type { Coordinates } from './route-start.js'

export interface RouteInput {
  shiftId: string
  userId: string
  userName: string
  /** The worker's colour, 1–8 (users.colour). */
  userColour: number
  vehicleId: string
  vehicleName: string
  locationId: string
  /** Instants in ms. */
  start: number
  end: number
  breaks: { start: number; end: number; isPaid: boolean }[]
  /** Part-day absences of the date: already breaks or a shorter shift above; kept to say why. */
  partAbsences: DayAbsence[]
  /** Where the vehicle starts its day, and where a RETURN_TO_ORIGIN route ends. */
  origin: Coordinates
  /** Where the route starts: the origin, or (planned from now) where the worker is (route-start.ts). */
  startPosition: Coordinates
  /** The depot's time zone. */
  zone: string
  /** Planned from now: the job its worker has in progress, first on the route whatever the plan. */
  inProgress: InProgressJob | null
  /** The route's next stop before this plan (its first ASSIGNED job by time), for stability. */
  previousFirstJobId: string | null
  endPolicy: 'RETURN_TO_ORIGIN' | 'END_AT_LAST_JOB'
  fixedCost: number
  costPerKm: number
  costPerHour: number
  speedFactor: number
  /** Capacity per dimension id (a dimension missing here has capacity 0). */
  capacities: Map<string, number>
  tagIds: Set<string>
}

export interface InProgressJob {
  id: string
  title: string
  /** Instants in ms: when it started, and when it is expected to end (start + duration, or now if overdue). */
  startedAt: number
  expectedEnd: number
}

export interface JobInput {
  id: string
  title: string
  status: 'CREATED' | 'ASSIGNED'
  priority: 'LOW' | 'NORMAL' | 'HIGH'
  /** null: neither the job nor its customer has coordinates. */
  position: { latitude: number; longitude: number } | null
  serviceSeconds: number
  windowType: 'HARD' | 'SOFT'
  /** The window in ms (null bound: open), already narrowed by the customer's opening hours. */
  earliest: number | null
  latest: number | null
  demands: Map<string, number>
  tagIds: string[]
  /** KEEP_ASSIGNED: the route (shift) an ASSIGNED job stays on. */
  pinnedShiftId: string | null
  assignedUserId: string | null
  shiftId: string | null
  /** When an ASSIGNED job is scheduled to start (ms), for the plan's list of changes. */
  scheduledStart: number | null
  /** The last date it should be done on (YYYY-MM-DD): a plan over several days keeps it to those. */
  dueBy?: string | null
  /** A plan over several days: the only routes (shiftIds) it may go on; undefined: any. */
  allowedShiftIds?: readonly string[]
}
