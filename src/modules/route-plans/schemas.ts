import { type Static, Type } from '@sinclair/typebox'
import {
  CalendarDay,
  DateTime,
  Envelope,
  Id,
  Nullable,
  NullableObject,
  PageQuery,
  Pagination,
  StringEnum,
  WorkerColour,
} from '../../http/schemas.js'

export const PLAN_STATUSES = ['QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED', 'APPLIED', 'STALE'] as const
export type PlanStatus = (typeof PLAN_STATUSES)[number]
export const PLAN_MODES = ['REPLAN_ALL', 'KEEP_ASSIGNED', 'REPLAN_REMAINING'] as const
export type PlanMode = (typeof PLAN_MODES)[number]
export const UNASSIGNED_REASONS = [
  'NO_LOCATION',
  'TIME_WINDOW',
  'CAPACITY',
  'SKILL',
  'NO_SHIFT',
  'WINDOW_PASSED',
] as const
export const PLAN_BALANCES = ['NONE', 'WORKLOAD', 'USE_ALL'] as const
export type PlanBalance = (typeof PLAN_BALANCES)[number]
export const PLAN_PHASES = ['LOADING', 'BUILDING', 'SEARCHING'] as const
export type PlanPhase = (typeof PLAN_PHASES)[number]

export const DEFAULT_TIME_LIMIT_SECONDS = 10
export const MAX_PLAN_IDS = 5000
/** A plan over several days (dateFrom..dateTo) covers at most this many. */
export const MAX_PLAN_DAYS = 7

const PlanStatus = StringEnum(
  PLAN_STATUSES,
  'QUEUED (waiting for a runner), RUNNING, DONE (ready to apply), FAILED, CANCELLED, APPLIED, or ' +
    'STALE (an input changed after the plan was made; it can no longer be applied)',
)
const PlanMode = StringEnum(
  PLAN_MODES,
  'REPLAN_ALL: re-plan the CREATED and ASSIGNED jobs of the day (assigned jobs may move or be ' +
    'unassigned); KEEP_ASSIGNED: assigned jobs stay on their routes and the CREATED ones are fitted around them; ' +
    'REPLAN_REMAINING: the rest of today from `at` — as REPLAN_ALL, each route starting where its worker is ' +
    '(after the job in progress, which stays first). Whatever the mode, a plan of today starts from now: ' +
    'no route starts earlier, done and in-progress work keeps its time, passed breaks are gone',
)
const PlanBalance = StringEnum(
  PLAN_BALANCES,
  'NONE: the cheapest plan (few routes may do all the work); WORKLOAD: even working time across the ' +
    'routes used — each route also costs half an hour of the average worker per hour² of its paid ' +
    'hours, so a job moves to a shorter route when that saves more than the detour costs; USE_ALL: ' +
    'every route gets work when some job can go on it — a route left empty costs the largest fixed cost ' +
    'plus eight hours of the average worker. Neither price is in the plan’s cost, which stays what the ' +
    'routes cost',
)
const PlanDate = CalendarDay(
  'The day to plan, YYYY-MM-DD; each shift is placed on it in its depot’s time zone. Give either ' +
    '`date` or `dateFrom` and `dateTo`',
)
const PlanDateFrom = CalendarDay(
  'The first day of a plan over several days (with `dateTo`, instead of `date`): jobs that may be done ' +
    'on several of its days — a window over more than one day, no window, or a `dueBy` date — go on the ' +
    'day where they cost least (never after their `dueBy`), jobs of one day stay on it, and every shift ' +
    'is placed on each day of its weekday',
)
const PlanDateTo = CalendarDay(
  `The last day of a plan over several days, on or after \`dateFrom\`: at most ${MAX_PLAN_DAYS} days in all`,
)
const IdList = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    minItems: 1,
    maxItems: MAX_PLAN_IDS,
    uniqueItems: true,
    description,
  })

export const CreateRoutePlanBody = Type.Object(
  {
    date: Type.Optional(PlanDate),
    dateFrom: Type.Optional(PlanDateFrom),
    dateTo: Type.Optional(PlanDateTo),
    locationId: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Plan one depot: its shifts, and the jobs of that depot or of none',
      }),
    ),
    jobIds: Type.Optional(
      IdList(
        'Plan only these jobs (each must be plannable on the date, or on a day of the range); omitted: ' +
          'every plannable job',
      ),
    ),
    shiftIds: Type.Optional(
      IdList(
        'Use only these shift templates (each must fall on the weekday of the date, or of a day of the range)',
      ),
    ),
    mode: PlanMode,
    at: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'The instant the plan is made as of (default now); it must fall on `date` (or a day of ' +
          '`dateFrom`..`dateTo`) in the depot’s time zone (the organisation’s primary depot’s without ' +
          'locationId). The plan of that date starts from it; REPLAN_REMAINING needs it, or today as ' +
          '`date`. A past date is planned as it was, from each shift’s start',
      }),
    ),
    stability: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        default: 0.5,
        description:
          'How much the plan keeps of the day as it is, 0–1: the cost of each job moved to another worker ' +
          '(two hours of the average worker cost at 1) and of each worker whose next stop changes (half ' +
          'an hour at 1); above 0, a job already assigned outranks every waiting job, whatever their ' +
          'priorities: it is left out only when no worker can serve it. 0: re-plan freely',
      }),
    ),
    balance: Type.Optional({ ...PlanBalance, default: 'NONE' }),
    timeLimitSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 300,
        default: DEFAULT_TIME_LIMIT_SECONDS,
        description: 'Wall-clock time the optimiser may search, 1–300 s',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { date: '2026-11-26', mode: 'REPLAN_ALL', timeLimitSeconds: 10 },
      { dateFrom: '2026-11-30', dateTo: '2026-12-04', mode: 'KEEP_ASSIGNED', timeLimitSeconds: 30 },
    ],
  },
)
export type CreateRoutePlanBody = Static<typeof CreateRoutePlanBody>

export const RoutePlanListQuery = Type.Object(
  {
    ...PageQuery(20),
    status: Type.Optional(PlanStatus),
    date: Type.Optional(CalendarDay('Plans of this day, those over several days that include it too')),
  },
  { additionalProperties: false },
)
export type RoutePlanListQuery = Static<typeof RoutePlanListQuery>

const Progress = Type.Object(
  {
    phase: StringEnum(
      PLAN_PHASES,
      'LOADING: the day is read from the database; BUILDING: the travel matrix and a first plan (every ' +
        'job at its cheapest place, then polished); SEARCHING: the optimiser improves on the best plan',
    ),
    elapsedSeconds: Type.Number({
      description: 'Seconds since a runner took the plan (updated about every second while RUNNING)',
    }),
    iterations: Type.Integer({ description: 'Search iterations so far (0 before SEARCHING)' }),
    bestCost: Nullable(
      Type.Number({ description: 'Cost of the best plan found so far; null until a first plan is built' }),
    ),
    assignedJobs: Type.Integer({ description: 'Jobs the best plan so far assigns' }),
  },
  {
    description:
      'From the moment a runner takes the plan (RUNNING), and the last report once it has finished. A plan ' +
      'ends before its time limit when it cannot improve: one job, no job that fits, or no better plan ' +
      'for a long stretch of the search while every job that fits on a route is planned',
  },
)
export type RoutePlanProgress = Static<typeof Progress>

const Load = Type.Object({
  capacityDimensionId: Id,
  key: Type.String(),
  value: Type.Number({ description: 'Sum of the demands of this and every earlier stop of the route' }),
})

const Stop = Type.Object({
  jobId: Id,
  title: Type.String(),
  arrival: DateTime,
  serviceStart: DateTime,
  serviceEnd: DateTime,
  travelKm: Type.Number({ description: 'Travel from the previous stop (or the route start)' }),
  travelMinutes: Type.Number(),
  lateMinutes: Type.Number({ description: 'SOFT window only: minutes the visit ends after latestEnd' }),
  load: Type.Array(Load),
  inProgress: Type.Optional(
    Type.Boolean({
      description:
        'The job its worker has in progress (planned from now): first, from its start to its expected ' +
        'end (start + duration, or now if overdue); applying the plan leaves it as it is',
    }),
  ),
})

const Break = Type.Object({ start: DateTime, end: DateTime, isPaid: Type.Boolean() })

const ResultDate = Type.String({
  format: 'date',
  description: 'The day of the route’s shift (YYYY-MM-DD); missing from plans made before it was given',
})

const Route = Type.Object({
  shiftId: Id,
  date: Type.Optional(ResultDate),
  user: Type.Object({
    id: Id,
    name: Type.String(),
    colour: Type.Optional({
      ...WorkerColour,
      description: `${WorkerColour.description}. Missing from plans made before colours were stored`,
    }),
  }),
  vehicle: Type.Object({ id: Id, name: Type.String() }),
  locationId: Id,
  start: DateTime,
  end: DateTime,
  breaks: Type.Array(Break),
  stops: Type.Array(Stop),
  returnTravelKm: Type.Number({
    description: 'From the last stop back to the origin; 0 for END_AT_LAST_JOB',
  }),
  returnTravelMinutes: Type.Number(),
  totals: Type.Object({
    jobs: Type.Integer(),
    km: Type.Number(),
    hours: Type.Number({ description: 'From leaving the start to the end of the route' }),
    cost: Type.Number(),
  }),
})

const UnassignedJob = Type.Object({
  jobId: Id,
  title: Type.String(),
  reason: StringEnum(
    UNASSIGNED_REASONS,
    'NO_LOCATION: neither the job nor its customer has coordinates; TIME_WINDOW: no route can reach it ' +
      'inside its window; CAPACITY: no vehicle has room for its demands; SKILL: no vehicle has all its tags; ' +
      'NO_SHIFT: no route that day; WINDOW_PASSED: planned from now, its HARD window closes before it could be done',
  ),
})

const Cost = Type.Object({
  fixed: Type.Number({ description: 'Σ fixedCost of the vehicles used' }),
  distance: Type.Number({ description: 'Σ costPerKm × km' }),
  time: Type.Number({ description: 'Σ costPerHour × route hours' }),
  lateness: Type.Number({ description: 'SOFT windows: penalty per minute late × minutes' }),
  total: Type.Number(),
})

const ChangeEnd = Type.Object({
  user: Type.Object({ id: Id, name: Type.String() }),
  shiftId: Nullable(Id),
  start: Nullable(DateTime),
})

const Change = Type.Object(
  {
    jobId: Id,
    title: Type.String(),
    from: NullableObject({
      ...ChangeEnd,
      description: 'Its worker and scheduled start before the plan; null: not assigned',
    }),
    to: NullableObject({
      ...ChangeEnd,
      description: 'Its worker and service start in the plan; null: taken off its route',
    }),
    movedWorker: Type.Boolean({
      description: 'Whether the worker changes (assigned or unassigned included)',
    }),
  },
  { description: 'A job whose worker or start time (to the minute) the plan changes' },
)
export type RoutePlanChange = Static<typeof Change>

const Travel = Type.Object(
  {
    source: StringEnum(
      ['ROAD_NETWORK', 'STRAIGHT_LINE'],
      'ROAD_NETWORK: road times and distances from the routing service (ROUTING_OSRM_URL); ' +
        'STRAIGHT_LINE: great-circle distance × the detour factor at the organisation’s speed',
    ),
    warnings: Type.Array(
      Type.Object({
        code: StringEnum(
          ['TRAVEL_FALLBACK', 'TRAVEL_UNROUTABLE'],
          'TRAVEL_FALLBACK: the routing service could not be used (unreachable, timed out, refused), so ' +
            'straight lines were; TRAVEL_UNROUTABLE: it found no road between some places, which take ' +
            'their straight-line values',
        ),
        message: Type.String(),
      }),
    ),
  },
  { description: 'Where the plan’s travel times came from (plans made before this was kept have none)' },
)

const Day = Type.Object(
  {
    date: Type.String({ format: 'date' }),
    routesUsed: Type.Integer(),
    assignedJobs: Type.Integer(),
    km: Type.Number(),
    hours: Type.Number(),
    cost: Type.Number({ description: 'Σ the cost of the day’s routes' }),
  },
  { description: 'The plan of one day' },
)

export const RoutePlanResult = Type.Object({
  routes: Type.Array(Route, { description: 'In date order, then as the shifts are listed' }),
  days: Type.Optional(
    Type.Array(Day, {
      description:
        'Each day of the plan, in order, days without routes included (missing from plans made before)',
    }),
  ),
  unassigned: Type.Array(UnassignedJob),
  totals: Type.Object({
    assignedJobs: Type.Integer(),
    unassignedJobs: Type.Integer(),
    routesUsed: Type.Integer(),
    km: Type.Number(),
    hours: Type.Number(),
  }),
  cost: Cost,
  changes: Type.Optional(
    Type.Array(Change, {
      description: 'What applying the plan changes (plans made before this list have none)',
    }),
  ),
  travel: Type.Optional(Travel),
})
export type RoutePlanResult = Static<typeof RoutePlanResult>

export const RoutePlan = Type.Object(
  {
    id: Id,
    status: PlanStatus,
    date: Type.String({
      format: 'date',
      description: 'The day planned; the first, for a plan over several days',
    }),
    dateTo: Nullable(
      Type.String({ format: 'date', description: 'The last day of a plan over several days; null: one day' }),
    ),
    locationId: Nullable(Type.String()),
    mode: PlanMode,
    timeLimitSeconds: Type.Integer(),
    at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'The instant the plan is made as of (null: made before it was kept)',
      }),
    ),
    stability: Type.Number({
      description: '0–1: the price of moving jobs between workers and of changing next stops',
    }),
    balance: PlanBalance,
    jobIds: Nullable(Type.Array(Type.String())),
    shiftIds: Nullable(Type.Array(Type.String())),
    progress: Nullable(Progress),
    result: Nullable(RoutePlanResult),
    error: Nullable(Type.String({ description: 'Why the plan FAILED' })),
    createdAt: DateTime,
    updatedAt: DateTime,
    startedAt: Nullable(DateTime),
    finishedAt: Nullable(DateTime),
    appliedAt: Nullable(DateTime),
  },
  { title: 'RoutePlan' },
)
export type RoutePlan = Static<typeof RoutePlan>

/** In lists: everything but the (large) result; read one plan for its routes. */
export const RoutePlanSummary = Type.Object(
  {
    ...Type.Omit(RoutePlan, ['result']).properties,
    totals: Nullable(RoutePlanResult.properties.totals),
  },
  { title: 'RoutePlanSummary' },
)
export type RoutePlanSummary = Static<typeof RoutePlanSummary>

export const RoutePlanResponse = Envelope(Type.Object({ routePlan: RoutePlan }), 'The route plan')
export const RoutePlanListResponse = Envelope(
  Type.Object({ routePlans: Type.Array(RoutePlanSummary), pagination: Pagination }),
  'Route plans, newest first',
)
