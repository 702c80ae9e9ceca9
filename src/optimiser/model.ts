// The optimiser's contract: the input model a caller builds (the route-plans module from the
// database, the Solomon reader from a file) and the plan `solve` returns. Plain objects and typed
// arrays only, so both cross a worker-thread boundary unchanged. Nothing here knows about
// organisations, SQL or HTTP.
//
// Units: times are absolute seconds on one clock of the caller's choosing (e.g. Unix seconds, or
// seconds since the plan date's midnight in the depot's time zone); distances are metres; money is
// in the organisation's currency. The Solomon reader uses the file's own units instead (distance =
// travel time, costPerKm = 1000 so that cost = distance). Engine numbers are float64 throughout,
// so Solomon distances stay exact; the product's matrix holds whole metres and seconds.

/** How a job's window constrains its visit (`ModelOptions.windowRule`). */
export type WindowRule =
  /** The whole visit lies inside the window: service starts ≥ earliest and ends ≤ latest (the product). */
  | 'VISIT_WITHIN'
  /** Solomon's rule: service starts ≥ earliest and *starts* ≤ latest (the due date). */
  | 'START_BY_DUE'

export type EndPolicy =
  /** The route ends where it started. */
  | 'RETURN_TO_ORIGIN'
  /** The route ends when the last job's service ends: no travel after it. */
  | 'END_AT_LAST_JOB'

export type WindowType = 'HARD' | 'SOFT'
export type Priority = 'HIGH' | 'NORMAL' | 'LOW'

export type UnassignedReason =
  /** The job has no coordinates (neither its own nor its customer's). */
  | 'NO_LOCATION'
  /** No route can visit it inside its window (alone, or around what the plan already holds there). */
  | 'TIME_WINDOW'
  /** Every route with the skills is too full (or too small) for its demand. */
  | 'CAPACITY'
  /** No route's vehicle has every tag the job requires. */
  | 'SKILL'
  /** There is no route (shift) at all that day. */
  | 'NO_SHIFT'

/**
 * Travel between the model's locations, computed once per plan (n ≤ a few thousand points):
 * row-major n × n, `distance[from * size + to]`. `duration` is at speedFactor 1; a route's travel
 * time is `duration / speedFactor`. A road-network table service plugs in here: fetch its table
 * before solving and pass it as `RoutingModel.travel`. Neither matrix needs to be symmetric.
 */
export interface TravelMatrix {
  readonly size: number
  /** Metres (Solomon: Euclidean units). */
  readonly distance: Float64Array
  /** Seconds at speedFactor 1 (Solomon: equal to the distance). */
  readonly duration: Float64Array
}

/** WGS 84 coordinates in decimal degrees. */
export interface Coordinates {
  lat: number
  lng: number
}

/** A fixed, absolute interval of a route during which its worker neither travels nor serves. */
export interface BreakSpec {
  /** Absolute seconds. */
  start: number
  end: number
  /** Unpaid break time is not charged at costPerHour. */
  paid: boolean
}

/**
 * One shift instance on the plan date: a worker with a vehicle. A route is "used" when it serves
 * at least one job; an unused route costs nothing and its breaks do not matter.
 */
export interface RouteSpec {
  id: string
  workerId?: string
  vehicleId?: string
  /** Index into `locations` / the travel matrix: the vehicle's start position, else its depot. */
  start: number
  end: EndPolicy
  /**
   * Where a RETURN_TO_ORIGIN route ends, when not where it starts: a re-plan of the rest of the day
   * starts from where the worker is and still returns to the vehicle's start. Default `start`.
   */
  endLocation?: number
  /**
   * Stability: the model job index of the route's next stop before this plan. A plan whose first
   * stop on the route is another job (or none) pays `ModelOptions.nextStopChangeCost`.
   */
  previousFirstJob?: number
  /** Operating window in absolute seconds: leave the start ≥ window[0], arrive at the end ≤ window[1]. */
  window: [number, number]
  /**
   * Breaks inside the window. A used route takes every break where its worker is at that moment
   * (at the previous stop, or at the start) and travels on afterwards: travel never overlaps a
   * break. Breaks outside the window are ignored.
   */
  breaks: BreakSpec[]
  /** Per dimension (length `RoutingModel.dimensions`); a dimension the vehicle lacks is 0. */
  capacity: number[]
  /** Tags of the vehicle: a job is allowed only if all of its `skills` are here. */
  skills: string[]
  /** Charged once when the route is used. */
  fixedCost: number
  costPerKm: number
  /** Per hour from leaving the start to reaching the end, waiting and paid breaks included. */
  costPerHour: number
  /** Travel time = matrix duration / speedFactor (> 0; 1 = normal). */
  speedFactor: number
}

export interface JobSpec {
  id: string
  /** Index into `locations` / the travel matrix; null when the job has no coordinates. */
  location: number | null
  serviceSeconds: number
  /** [earliest, latest] absolute seconds, already narrowed by the caller; null = any time in the shift. */
  window: [number, number] | null
  /** HARD: the visit must respect the window. SOFT: it may end late at `latenessPenaltyPerMinute`. */
  windowType: WindowType
  priority: Priority
  /** Per dimension (length `RoutingModel.dimensions`). */
  demand: number[]
  /** Tags the job requires on the vehicle. */
  skills: string[]
  /**
   * KEEP_ASSIGNED: the index of the route the job must stay on. A pinned job is placed before any
   * other (it outranks HIGH); it may move within its route but never to another.
   */
  pinnedRoute?: number
  /**
   * The only routes the job may go on (a plan over several days: the routes of the days it may be done
   * on); omitted: any route its skills and demands allow. An empty list: none (unassigned, NO_SHIFT).
   */
  allowedRoutes?: number[]
  /**
   * Stability: the index of the route the job is on before this plan. Serving it on any other route
   * costs `ModelOptions.moveCost`; when that is priced (> 0), the job also outranks every job that
   * has no previous route: it is left unassigned only when it cannot be served.
   */
  previousRoute?: number
}

export interface ModelOptions {
  /** Default VISIT_WITHIN. */
  windowRule: WindowRule
  /** Cost per minute a SOFT job's visit ends past its window (START_BY_DUE: starts past it). Default 1. */
  latenessPenaltyPerMinute: number
  /** Used only when `travel` is absent and the matrix is computed from `locations`. Default 1.3. */
  detourFactor: number
  /** Used only when `travel` is absent. Default 40. */
  speedKmh: number
  /** Stability: cost of serving a job on another route than its `previousRoute`. Default 0. */
  moveCost: number
  /** Stability: cost of a route whose first stop is not its `previousFirstJob`. Default 0. */
  nextStopChangeCost: number
  /**
   * Balance (WORKLOAD): each route's fair share of the day is the first plan's paid hours spread
   * over every route in proportion to its shift's paid length; a route's paid hours beyond its share
   * × (1 + `workloadTolerance`) cost this per hour², so work moves to routes below their share.
   * Default 0 (off). Not part of the plan's reported cost; the objective only.
   */
  workloadCostPerHourSquared: number
  /** Balance (WORKLOAD): how far above its fair share a route may go unpriced, as a fraction. Default 0.15. */
  workloadTolerance: number
  /**
   * Balance (USE_ALL): each route left empty costs this, so every route gets work when some job can
   * go on it. Default 0. Not part of the plan's reported cost; the objective only.
   */
  unusedRouteCost: number
}

export interface RoutingModel {
  /** Number of capacity dimensions (0 when nothing is counted). */
  dimensions: number
  /** Optional names of the dimensions, for display only. */
  dimensionNames?: string[]
  /** The points every `start` and `location` index refers to. */
  locations: Coordinates[]
  /**
   * The travel matrix over `locations`. When absent, `solve` computes the default great-circle
   * matrix (haversine × detourFactor at speedKmh).
   */
  travel?: TravelMatrix
  routes: RouteSpec[]
  jobs: JobSpec[]
  options?: Partial<ModelOptions>
}

export interface SolveOptions {
  /** Wall-clock limit; the search stops at it and returns the best plan found. Default 5,000. */
  timeLimitMs?: number
  /** Seed of the search's PRNG: the same model, seed and iteration count give the same plan. */
  seed?: number
  /** Stop after this many iterations even before the time limit (tests, reproducible runs). */
  maxIterations?: number
  /**
   * End the search before the time limit once it has stalled: the best plan unchanged for
   * max(20,000, clamp(20 % of the iterations planned for the time limit, 2,000 × jobs, 10,000 ×
   * jobs)) iterations while every job that fits on some route on its own is planned. Counted in
   * iterations, so a seed still fixes the plan. Default false: the benchmarks give every instance
   * its whole limit; the route-plans service sets it (a dispatcher waits for the plan).
   */
  stopWhenStalled?: boolean
  /**
   * Called at most every `progressIntervalMs` (default 250) from the first solution's construction
   * on (clock checked every few milliseconds in every phase), then until the search ends.
   */
  onProgress?: (progress: SolveProgress) => void
  progressIntervalMs?: number
  /** Aborting stops the search at its next check (every few milliseconds) with the best plan so far. */
  signal?: AbortSignal
  /** A shared Int32Array([0]); any non-zero value cancels, like `signal` (worker threads). */
  cancelFlag?: Int32Array
  /**
   * Granular local search (relocate, swap, Or-opt, 2-opt*) on top of ruin and recreate. Default
   * true; false gives the plain ruin-and-recreate search (benchmark comparisons).
   */
  localSearch?: boolean
}

/**
 * BUILDING: the first plan, every job inserted at its cheapest place, then polished by the local
 * search; SEARCHING: ruin and recreate from it.
 */
export type SolvePhase = 'BUILDING' | 'SEARCHING'

export interface SolveProgress {
  phase: SolvePhase
  elapsedMs: number
  iterations: number
  /** The best plan's cost; while BUILDING, the polished first plan's (null while jobs are inserted). */
  bestCost: number | null
  assigned: number
  unassigned: number
}

export interface PlannedStop {
  /** Index into `RoutingModel.jobs`. */
  job: number
  jobId: string
  /** Absolute seconds. */
  arrival: number
  serviceStart: number
  serviceEnd: number
  /** From the previous stop (or the start); breaks in between are listed in `PlannedRoute.breaks`. */
  travelDistance: number
  travelTime: number
  /** Per dimension, the load delivered so far on the route including this stop. */
  load: number[]
  /** Seconds past a SOFT window (0 when on time or HARD). */
  lateness: number
}

export interface PlannedBreak {
  /** Index into the route's `breaks`. */
  break: number
  start: number
  end: number
  /** Taken after this many stops (0 = at the start, before the first travel). */
  afterStops: number
}

export interface PlannedRoute {
  /** Index into `RoutingModel.routes`. */
  route: number
  routeId: string
  workerId?: string
  vehicleId?: string
  /** Absolute seconds: leaving the start, and reaching the end (END_AT_LAST_JOB: the last service end). */
  departure: number
  arrival: number
  stops: PlannedStop[]
  breaks: PlannedBreak[]
  /** Including the way to the end (RETURN_TO_ORIGIN). */
  distance: number
  travelTime: number
  serviceTime: number
  waitingTime: number
  breakTime: number
  /** arrival − departure. */
  duration: number
  /** Per dimension. */
  load: number[]
  cost: CostBreakdown
}

export interface CostBreakdown {
  fixed: number
  distance: number
  time: number
  lateness: number
  total: number
}

export interface UnassignedJob {
  job: number
  jobId: string
  reason: UnassignedReason
}

export interface SolveStats {
  seed: number
  iterations: number
  elapsedMs: number
  /** Iteration and elapsed time at which the best plan was found. */
  bestIteration: number
  bestElapsedMs: number
  assigned: number
  unassigned: number
  /** Whether the search ended by cancellation (signal or cancelFlag). */
  cancelled: boolean
  /**
   * Whether it ended before its time limit and iteration budget because the plan could not improve:
   * nothing to search for (one job, or none that fits anywhere) or, with `stopWhenStalled`, stalled.
   */
  converged: boolean
  /**
   * Per operator, in the order the search tries them: the local search's moves (relocate, swap,
   * or-opt, 2-opt*; none when it is off), then ruin-and-recreate (one evaluation per iteration).
   */
  operators: OperatorStats[]
}

/** What an operator did in one solve: for tuning, never for the plan. */
export interface OperatorStats {
  name: string
  /** Moves priced (a local-search operator prices up to a few variants around each pair of customers). */
  evaluations: number
  /** Evaluations that found a better plan than the current one. */
  improving: number
  /** Moves made: improving ones the state accepted; for ruin and recreate, also the worse ones annealing accepted. */
  applied: number
}

export interface Plan {
  /** Used routes only (at least one stop), in model order. */
  routes: PlannedRoute[]
  unassigned: UnassignedJob[]
  cost: CostBreakdown
  stats: SolveStats
}
