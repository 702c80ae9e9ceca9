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
  /** A list endpoint: its p50 goes into the flat-cost table (1 M vs 10 k). */
  list: boolean
  /** Issue 5's minimum ratio to the baseline, SQLite, 100 k jobs. */
  sqliteRatioTarget?: number
  request(fixtures: Fixtures): RequestSpec
}

const API = '/v1/public'

export const SCENARIOS: Scenario[] = [
  {
    name: 'job-get',
    label: 'GET /jobs/:id',
    default: true,
    list: false,
    sqliteRatioTarget: 0.5,
    request: (f) => ({ method: 'GET', path: `${API}/jobs/${f.jobId}` }),
  },
  {
    name: 'jobs-list',
    label: 'GET /jobs',
    default: true,
    list: true,
    sqliteRatioTarget: 0.3,
    request: () => ({ method: 'GET', path: `${API}/jobs` }),
  },
  {
    name: 'jobs-filtered',
    label: 'GET /jobs?status&targetDate',
    default: true,
    list: true,
    request: (f) => ({ method: 'GET', path: `${API}/jobs?status=ASSIGNED&targetDate=${f.targetDate}` }),
  },
  {
    name: 'jobs-deep',
    label: 'GET /jobs?cursor (90 % deep)',
    default: true,
    list: true,
    request: (f) => ({ method: 'GET', path: `${API}/jobs?cursor=${encodeURIComponent(f.deepCursor)}` }),
  },
  {
    name: 'jobs-deep-offset',
    label: 'GET /jobs?page (90 % deep)',
    default: false,
    list: true,
    request: (f) => ({ method: 'GET', path: `${API}/jobs?page=${f.deepPage}` }),
  },
  {
    name: 'customers-search',
    label: 'GET /customers?search',
    default: true,
    list: true,
    request: (f) => ({ method: 'GET', path: `${API}/customers?search=${encodeURIComponent(f.search)}` }),
  },
  {
    name: 'vehicles',
    label: 'GET /vehicles',
    default: true,
    list: true,
    request: () => ({ method: 'GET', path: `${API}/vehicles` }),
  },
  {
    name: 'shifts',
    label: 'GET /shifts',
    default: true,
    list: true,
    request: () => ({ method: 'GET', path: `${API}/shifts` }),
  },
  {
    name: 'job-create',
    label: 'POST /jobs',
    default: true,
    list: false,
    sqliteRatioTarget: 0.2,
    request: (f) => ({
      method: 'POST',
      path: `${API}/jobs`,
      dynamic: { kind: 'create-job', customerIds: f.customerIds, locationIds: f.locationIds },
    }),
  },
  {
    name: 'job-update',
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

// Issue 5's other targets, applied to the 100 k-job runs (and shown as indicative elsewhere).
export const TARGET_SIZE = 100_000
/** PostgreSQL GET /jobs/:id ÷ a Fastify route doing one raw prepared `pg` read of the same row. */
export const PG_RAW_RATIO_TARGET = 0.8
/** p99 of every GET on SQLite at 50 connections. */
export const SQLITE_GET_P99_TARGET_MS = 10
export const P99_TARGET_CONNECTIONS = 50
/** Every list endpoint's p50 at 1 M jobs ÷ its p50 at 10 k jobs. */
export const FLAT_COST_TARGET = 1.5
export const FLAT_COST_SIZES = [10_000, 1_000_000] as const
export const RSS_TARGET_MB = 300
export const RSS_TARGET_SIZE = 1_000_000
