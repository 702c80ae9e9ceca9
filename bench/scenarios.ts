// What is measured: one scenario is one request shape sent over and over, against the service and
// against the baseline that answers with the bytes the service gave for it.

/** Inputs a scenario needs from the dataset, found by direct SQL before the service starts. */
export interface Fixtures {
  organisationId: string
  apiKey: string
  /** Live jobs of the target organisation when the run starts. */
  liveJobs: number
  /** A job with a customer, tags and demands: the single-job shape at its fullest. */
  jobId: string
  /** Names the row at ~90 % depth of the newest-first job list. */
  deepCursor: string
  /** The OFFSET page at the same depth, for comparison with the cursor. */
  deepPage: number
  targetDate: string
  search: string
  customerIds: string[]
  locationIds: string[]
  /** Jobs that can be patched (CREATED or ASSIGNED). */
  patchIds: string[]
  /** `pagination.total` the service must report, per scenario, counted by direct SQL. */
  expectedTotals: Record<string, number>
}

/** Request bodies made fresh for every request by load.ts, so each write really changes something. */
export type DynamicBody =
  | { kind: 'create-job'; customerIds: string[]; locationIds: string[] }
  | { kind: 'update-job'; jobIds: string[] }

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH'
  /** For update-job the id in the path is replaced on every request. */
  path: string
  dynamic?: DynamicBody
}

export interface Scenario {
  name: string
  /** How the table shows it. */
  label: string
  /** Run unless --scenarios says otherwise. */
  default: boolean
  /** A list endpoint: its p50 goes into the flat-cost table (1 M vs 10 k), its p99 is judged on SQLite. */
  list: boolean
  /** A raw route (bench/raw-routes.ts) answers it too: the service's CPU per request is judged against it. */
  raw: boolean
  request(fixtures: Fixtures): RequestSpec
}

const API = '/v1/public'

export const SCENARIOS: Scenario[] = [
  {
    name: 'job-get',
    raw: true,
    label: 'GET /jobs/:id',
    default: true,
    list: false,
    request: (f) => ({ method: 'GET', path: `${API}/jobs/${f.jobId}` }),
  },
  {
    name: 'jobs-list',
    raw: true,
    label: 'GET /jobs',
    default: true,
    list: true,
    request: () => ({ method: 'GET', path: `${API}/jobs` }),
  },
  {
    name: 'jobs-filtered',
    raw: false,
    label: 'GET /jobs?status&targetDate',
    default: true,
    list: true,
    request: (f) => ({ method: 'GET', path: `${API}/jobs?status=ASSIGNED&targetDate=${f.targetDate}` }),
  },
  {
    name: 'jobs-deep',
    raw: false,
    label: 'GET /jobs?cursor (90 % deep)',
    default: true,
    list: true,
    request: (f) => ({ method: 'GET', path: `${API}/jobs?cursor=${encodeURIComponent(f.deepCursor)}` }),
  },
  {
    name: 'jobs-deep-offset',
    raw: false,
    label: 'GET /jobs?page (90 % deep)',
    default: false,
    list: true,
    request: (f) => ({ method: 'GET', path: `${API}/jobs?page=${f.deepPage}` }),
  },
  {
    name: 'customers-search',
    raw: false,
    label: 'GET /customers?search',
    default: true,
    list: true,
    request: (f) => ({ method: 'GET', path: `${API}/customers?search=${encodeURIComponent(f.search)}` }),
  },
  {
    name: 'vehicles',
    raw: false,
    label: 'GET /vehicles',
    default: true,
    list: true,
    request: () => ({ method: 'GET', path: `${API}/vehicles` }),
  },
  {
    name: 'shifts',
    raw: false,
    label: 'GET /shifts',
    default: true,
    list: true,
    request: () => ({ method: 'GET', path: `${API}/shifts` }),
  },
  {
    name: 'job-create',
    raw: true,
    label: 'POST /jobs',
    default: true,
    list: false,
    request: (f) => ({
      method: 'POST',
      path: `${API}/jobs`,
      dynamic: { kind: 'create-job', customerIds: f.customerIds, locationIds: f.locationIds },
    }),
  },
  {
    name: 'job-update',
    raw: true,
    label: 'PATCH /jobs/:id',
    default: true,
    list: false,
    request: (f) => ({
      method: 'PATCH',
      path: `${API}/jobs/${f.patchIds[0]}`,
      dynamic: { kind: 'update-job', jobIds: f.patchIds },
    }),
  },
]

export function scenarioNamed(name: string): Scenario {
  const scenario = SCENARIOS.find((s) => s.name === name)
  if (!scenario) throw new Error(`unknown scenario ${name}`)
  return scenario
}

// Issue 18's targets, judged at 100 k jobs (and shown as hints at other sizes).
export const TARGET_SIZE = 100_000
/** Raw route CPU µs per request ÷ the service's, in the same run: the service within 1.25×. */
export const RAW_CPU_RATIO_TARGET = 0.8
/** p99 of every list on SQLite at 50 connections. */
export const SQLITE_LIST_P99_TARGET_MS = 10
export const P99_TARGET_CONNECTIONS = 50
/** p50 of POST and PATCH /jobs on PostgreSQL at 50 connections. */
export const PG_WRITE_P50_TARGET_MS = 20
/** Every list endpoint's p50 at 1 M jobs ÷ its p50 at 10 k jobs. */
export const FLAT_COST_TARGET = 1.5
export const FLAT_COST_SIZES = [10_000, 1_000_000] as const
/** The service's largest resident set, at every size. */
export const RSS_TARGET_MB = 300
/** A server using less of its core than this was not saturated: its CPU per request may be flattered. */
export const SATURATED_SHARE = 0.9
