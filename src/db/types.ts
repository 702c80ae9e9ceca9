// Row types of every table, as Kysely sees them. Column names are snake_case; each module's
// serialize.ts turns rows into the spec's camelCase shapes.
//
// Both dialects yield the same JS values: datetimes are ISO 8601 UTC strings with milliseconds
// (TEXT on SQLite, timestamptz parsed to ISO on PostgreSQL), coordinates are canonical decimal
// strings (TEXT / numeric), booleans are 0/1 on SQLite and true/false on PostgreSQL and are written
// as 0/1 on both (see `sqlBool`).
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely'

export type Bool = ColumnType<boolean | number, number, number>
/** Timestamp column: ISO string in, ISO string out. */
export type Timestamp = string

export type PlanTier = 'FREE' | 'STARTER' | 'PRO' | 'ENTERPRISE'
export type JobStatus = 'CREATED' | 'ASSIGNED' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED'
export type JobPriority = 'LOW' | 'NORMAL' | 'HIGH'
export type TimeWindowType = 'HARD' | 'SOFT'
export type VehicleEndPolicy = 'RETURN_TO_ORIGIN' | 'END_AT_LAST_JOB'
export type DayOfWeek = 'MONDAY' | 'TUESDAY' | 'WEDNESDAY' | 'THURSDAY' | 'FRIDAY' | 'SATURDAY' | 'SUNDAY'
export type UserRole = 'ADMIN' | 'DISPATCHER' | 'WORKER'

export interface OrganisationsTable {
  id: string
  name: string
  plan: PlanTier
  /** Route optimiser settings (migration 0011): great-circle detour, base speed, SOFT lateness cost. */
  routing_detour_factor: Generated<number>
  routing_speed_kmh: Generated<number>
  routing_lateness_penalty_per_minute: Generated<number>
  created_at: Timestamp
  updated_at: Timestamp
  /** Customer emails when a job is en route / completed (migration 0024). */
  notify_customer_en_route: ColumnType<boolean | number, number | undefined, number>
  notify_customer_completed: ColumnType<boolean | number, number | undefined, number>
  /** The maps' tile server URL template (https, {z} {x} {y}) and its attribution (migration 0027); null: no tiles. */
  map_tile_url: ColumnType<string | null, string | null | undefined, string | null>
  map_attribution: ColumnType<string | null, string | null | undefined, string | null>
  /** Bytes of attachments the organisation may keep (migration 0031); null: ATTACHMENT_QUOTA_BYTES. */
  attachment_quota_bytes: ColumnType<string | number | null, number | null | undefined, number | null>
}

export interface UsersTable {
  id: string
  organisation_id: string
  name: string
  email: string
  role: UserRole
  is_active: Bool
  /** `$scrypt$ln=…,r=…,p=…$salt$hash` (migration 0012); null: the user cannot sign in. */
  password_hash: string | null
  password_changed_at: Timestamp | null
  /** 1–8, the worker's colour on the board and the maps (migration 0029); the database defaults it to 1. */
  colour: ColumnType<number, number | undefined, number>
  created_at: Timestamp
  updated_at: Timestamp
}

/** A signed-in dashboard browser (migration 0012); `id` is the SHA-256 of the cookie value. */
export interface UserSessionsTable {
  id: string
  organisation_id: string
  user_id: string
  csrf_token: string
  created_at: Timestamp
  last_seen_at: Timestamp
  expires_at: Timestamp
}

/** A secret the service generated for itself, one row per purpose (migration 0018). */
export interface ServerSecretsTable {
  name: string
  /** Random bytes, base64url. */
  value: string
  created_at: Timestamp
}

export interface LocationsTable {
  id: string
  organisation_id: string
  name: string
  code: string
  description: string
  address: string
  latitude: string
  longitude: string
  timezone: string
  is_primary: Bool
  is_active: Bool
  created_at: Timestamp
  updated_at: Timestamp
}

export interface CapacityDimensionsTable {
  id: string
  organisation_id: string
  key: string
  label: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface TagsTable {
  id: string
  organisation_id: string
  name: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface VehiclesTable {
  id: string
  organisation_id: string
  location_id: string
  name: string
  fixed_cost: number
  cost_per_km: number
  cost_per_hour: number
  speed_factor: number
  start_latitude: string | null
  start_longitude: string | null
  end_policy: VehicleEndPolicy
  is_active: Bool
  created_at: Timestamp
  updated_at: Timestamp
}

export interface VehicleTagsTable {
  organisation_id: string
  vehicle_id: string
  tag_id: string
}

export interface VehicleCapacitiesTable {
  organisation_id: string
  vehicle_id: string
  capacity_dimension_id: string
  max_value: number
}

export interface ShiftsTable {
  id: string
  organisation_id: string
  user_id: string
  location_id: string
  vehicle_id: string
  day: DayOfWeek
  start_time: string
  end_time: string
  is_generated: Bool
  created_at: Timestamp
  updated_at: Timestamp
}

export interface ShiftBreaksTable {
  id: string
  organisation_id: string
  shift_id: string
  start_time: string
  end_time: string
  is_paid: Bool
  created_at: Timestamp
}

export interface CustomersTable {
  id: string
  organisation_id: string
  name: string
  address: string
  latitude: string
  longitude: string
  service_duration: number
  priority: JobPriority
  time_window_type: TimeWindowType
  operational_start: string
  operational_end: string
  created_at: Timestamp
  updated_at: Timestamp
  /** lower(name) and lower(address), maintained by triggers (migration 0006), for `search=`. */
  search_name: Generated<string>
  search_address: Generated<string>
  /** Migration 0024: where the customer hears that a job is on its way. */
  email: string | null
  /** E.164 */
  phone: string | null
  /** Migration 0026: for whoever visits (gate codes, "call before arriving"). */
  notes: string | null
  /**
   * Migration 0032: the caller's own reference (an ERP key), unique per organisation where set; CSV
   * imports upsert by it. Optional in the insert type for rows written directly.
   */
  external_id: ColumnType<string | null, string | null | undefined, string | null>
}

export interface JobsTable {
  id: string
  organisation_id: string
  title: string
  description: string | null
  status: JobStatus
  priority: JobPriority
  customer_id: string | null
  location_id: string | null
  job_latitude: string | null
  job_longitude: string | null
  service_duration: number
  time_window_type: TimeWindowType
  earliest_start: Timestamp | null
  latest_end: Timestamp | null
  scheduled_start: Timestamp | null
  scheduled_end: Timestamp | null
  assigned_user_id: string | null
  shift_id: string | null
  started_at: Timestamp | null
  completed_at: Timestamp | null
  actual_duration: number | null
  created_at: Timestamp
  updated_at: Timestamp
  deleted_at: Timestamp | null
  /** When the server received the start (started_at is when the worker started, as sent). */
  start_recorded_at: Timestamp | null
  complete_recorded_at: Timestamp | null
  /** When the worker said "On my way" (migration 0024); the status stays ASSIGNED. */
  en_route_at: Timestamp | null
  /**
   * Per organisation, from 1001 (migration 0026); the API shows it as J-<number>. Set once, at the
   * insert (jobs/service.ts takes it from job_number_counters); never updated. Optional in
   * the insert type only for tests that write rows directly.
   */
  number: ColumnType<number, number | undefined, never>
  /**
   * The visit's address as people write it (migration 0028); null: the customer's is shown. The
   * coordinates stay the routing truth. Optional in the insert type for rows written directly.
   */
  address: ColumnType<string | null, string | null | undefined, string | null>
  /**
   * The series this job is an occurrence of, and that occurrence's date in the rule (migration 0030);
   * null for a job made by hand. Set once, by the series generator; unique together.
   */
  series_id: ColumnType<string | null, string | null | undefined, never>
  occurrence_date: ColumnType<string | null, string | null | undefined, never>
  /**
   * The caller's own reference (migration 0032), unique per organisation where set (deleted jobs
   * keep theirs); CSV imports upsert by it. Optional in the insert type for rows written directly.
   */
  external_id: ColumnType<string | null, string | null | undefined, string | null>
  /**
   * The last date the job should be done on, YYYY-MM-DD in its depot's calendar (migration 0037): a
   * plan over several days may place it on any of them up to that date. Optional in the insert type
   * for rows written directly.
   */
  due_by: ColumnType<string | null, string | null | undefined, string | null>
}

/** Each organisation's last job number (migration 0026). */
export interface JobNumberCountersTable {
  organisation_id: string
  last_number: number
}

export interface JobTagsTable {
  organisation_id: string
  job_id: string
  tag_id: string
}

export interface JobDemandsTable {
  organisation_id: string
  job_id: string
  capacity_dimension_id: string
  required_value: number
}

export interface ApiKeysTable {
  id: string
  organisation_id: string
  name: string
  /** The public part shown in lists: `svc_live_` and the first characters of the secret. */
  prefix: string
  /** Hex SHA-256 of the whole key; the key itself is never stored. */
  key_hash: string
  /** Space-separated subset of `read write admin`. */
  scopes: string
  rate_limit_per_minute: number
  expires_at: Timestamp | null
  revoked_at: Timestamp | null
  last_used_at: Timestamp | null
  created_at: Timestamp
  /** The key that replaced this one by rotation; a key is rotated at most once. */
  replaced_by_id: string | null
}

export interface OutboxEventsTable {
  id: string
  organisation_id: string
  event: string
  /** JSON text: the `data` of the webhook payload. */
  data: string
  occurred_at: Timestamp
  dispatched_at: Timestamp | null
}

export type AutomationAction = 'SEND_WEBHOOK'
export type ExecutionStatus = 'PENDING' | 'SUCCESS' | 'FAILED'

export interface AutomationsTable {
  id: string
  organisation_id: string
  name: string
  event: string
  action: AutomationAction
  url: string
  is_active: Bool
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}

export interface WebhookExecutionsTable {
  id: string
  organisation_id: string
  automation_id: string
  event_id: string
  webhook_id: string
  event: string
  url: string
  status: ExecutionStatus
  http_status: number | null
  error: string | null
  duration_ms: number | null
  /** The exact bytes sent (JSON text). */
  request_body: string
  response_body: string | null
  /** JSON object of the receiver's response headers (set-cookie left out); null when none came. */
  response_headers: string | null
  redelivery_of: string | null
  created_at: Timestamp
  completed_at: Timestamp | null
}

export interface FormSubmissionsTable {
  id: string
  organisation_id: string
  job_id: string
  form: string
  /** JSON text: the answers object. */
  answers: string
  submitted_by_user_id: string | null
  /** The template the answers were checked against; null for a template-less submission. */
  template_id: string | null
  created_at: Timestamp
}

/** Migration 0022: where a worker's phone was, sent while on shift; pruned after the retention. */
export interface PositionsTable {
  id: string
  organisation_id: string
  user_id: string
  /** Decimal text (SQLite) or numeric (PostgreSQL), read back as a string. */
  latitude: string
  longitude: string
  /** Metres; null when the device gave none. */
  accuracy: number | null
  recorded_at: Timestamp
  received_at: Timestamp
}

/** Migration 0022: the arrival last announced for a job (JOB_ETA_CHANGED), per schedule. */
export interface JobEtasTable {
  organisation_id: string
  job_id: string
  scheduled_start: Timestamp | null
  sent_eta: Timestamp
  updated_at: Timestamp
}

/** Migration 0022: who runs a named background task until when (one instance at a time). */
/** A recurring job series (migration 0030): a job template and an RFC 5545 rule. */
export interface JobSeriesTable {
  id: string
  organisation_id: string
  /** JSON text: the job's fields as POST /v1/admin/job-series takes them (`job`). */
  template: string
  /** Normalised RRULE text, without DTSTART (start_date is it). */
  rrule: string
  start_date: string
  end_date: string | null
  window_start: string | null
  window_end: string | null
  window_type: TimeWindowType | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** One CSV import (migration 0032): its progress and result, readable from any instance. */
export interface ImportsTable {
  id: string
  organisation_id: string
  kind: 'customers' | 'jobs'
  /** 0 or 1 */
  dry_run: number
  /** JSON text: our field name → the CSV's header name. */
  mapping: string
  status: 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED'
  processed: number
  created: number
  updated: number
  unchanged: number
  failed: number
  bytes_read: number
  bytes_total: number | null
  /** JSON text: the first 100 `{ row, field, error, code }`. */
  errors: string
  /** JSON text: the first 20 rows as mapped. */
  sample: string
  failure: string | null
  created_at: Timestamp
  updated_at: Timestamp
  finished_at: Timestamp | null
}
export type ImportRow = Selectable<ImportsTable>

/** One occurrence of a series skipped, or moved to another date (migration 0030). */
export interface JobSeriesExceptionsTable {
  organisation_id: string
  series_id: string
  occurrence_date: string
  kind: 'SKIP' | 'MOVE'
  moved_to: string | null
  window_start: string | null
  window_end: string | null
  window_type: TimeWindowType | null
  created_at: Timestamp
}

/** An attachment of a job (migration 0031); its content is in the AttachmentStore under content_key. */
export interface AttachmentsTable {
  id: string
  organisation_id: string
  job_id: string
  kind: 'PHOTO' | 'SIGNATURE' | 'FILE'
  content_type: string
  size_bytes: number
  sha256: string
  filename: string
  signer_name: string | null
  signed_at: Timestamp | null
  uploaded_by_user_id: string | null
  content_key: string
  thumbnail_key: string | null
  thumbnail_size_bytes: number | null
  created_at: Timestamp
}

/** The database AttachmentStore's content, in order (migration 0031). */
export interface AttachmentChunksTable {
  content_key: string
  seq: number
  data: Uint8Array
}

export interface LeasesTable {
  name: string
  holder: string
  expires_at: Timestamp
}

export interface FormTemplatesTable {
  id: string
  organisation_id: string
  name: string
  description: string
  applies_to: 'ALL_JOBS' | 'TAGGED_JOBS'
  tag_id: string | null
  /** JSON text: the FormField array. */
  fields: string
  is_active: Bool
  created_at: Timestamp
  updated_at: Timestamp
  /** JSON text: the Requires object every job the template applies to needs (migration 0033). */
  requires: ColumnType<string, string | undefined, string>
}

/** A job's own completion requirements (migration 0033); no row: none. */
export interface JobRequirementsTable {
  organisation_id: string
  job_id: string
  signature: Bool
  photos: number
  notes: Bool
  updated_at: Timestamp
}

/** What the worker wrote on completing the job (migration 0033). */
export interface JobCompletionNotesTable {
  organisation_id: string
  job_id: string
  notes: string
  written_by_user_id: string | null
  created_at: Timestamp
}

/** Maintained by triggers (migration 0004): live jobs per (status, priority, location), '*' = any. */
export interface JobCountsTable {
  organisation_id: string
  status: string
  priority: string
  /** A location id, '' for jobs without one, or '*'. */
  location_id: string
  /** PostgreSQL only (0017): a counter is the sum of its slots' counts. */
  slot?: number
  count: number
}

/** Maintained by triggers (migration 0005): one row per UTC day a bounded (≤ 32-day) window overlaps. */
export interface JobDaysTable {
  organisation_id: string
  /** YYYY-MM-DD */
  day: string
  job_id: string
  status: string
  created_at: Timestamp
}

/** Maintained by triggers (migration 0005): jobs with one open bound or a window over 32 days. */
export interface JobLongWindowsTable {
  organisation_id: string
  job_id: string
  status: string
  created_at: Timestamp
  earliest_start: Timestamp | null
  latest_end: Timestamp | null
}

/** Maintained by triggers (migration 0005): job_days rows per (day, status | '*'). */
export interface JobDayCountsTable {
  organisation_id: string
  day: string
  status: string
  /** PostgreSQL only (0017): a counter is the sum of its slots' counts. */
  slot?: number
  count: number
}

export interface RoutePlansTable {
  id: string
  organisation_id: string
  status: string
  /** YYYY-MM-DD */
  plan_date: string
  location_id: string | null
  mode: string
  time_limit_seconds: number
  /** JSON arrays of ids, or null. */
  job_ids: string | null
  shift_ids: string | null
  seed: number
  /** JSON texts. */
  progress: string | null
  result: string | null
  inputs: string | null
  error: string | null
  cancel_requested: Bool
  /** Round-robin position in the queue: claimed lowest first (migration 0019). */
  queue_round: number
  /** The instant the plan is made as of (migration 0023); null for plans made before. */
  plan_at: Timestamp | null
  /** 0–1: the price of moving jobs between workers (migration 0023). */
  stability: number
  /** NONE, WORKLOAD or USE_ALL (migration 0036). */
  balance: string
  /** The last date of a plan over several days (migration 0037); null: one day, plan_date. */
  date_to: ColumnType<string | null, string | null | undefined, string | null>
  claimed_by: string | null
  heartbeat_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
  started_at: Timestamp | null
  finished_at: Timestamp | null
  applied_at: Timestamp | null
}

export type IdempotencyStatus = 'RUNNING' | 'DONE'

/** Before migration 0020: written only by older builds (during a rolling deploy); dropped later. */
export interface IdempotencyKeysTable {
  organisation_id: string
  key: string
  /** SHA-256 (hex) of method, path with query and canonical JSON body. */
  fingerprint: string
  status: IdempotencyStatus
  /** Random per claim: who may complete or release the row. */
  claim_id: string
  response_status: number | null
  /** The response body as sent (JSON text). */
  response_body: string | null
  locked_at: Timestamp
  created_at: Timestamp
  expires_at: Timestamp
}

/** An Idempotency-Key of one credential (`key:<API key id>` or `user:<user id>`) and its response. */
export interface IdempotencyClaimsTable extends IdempotencyKeysTable {
  credential: string
}

/** The tracking link of a job (migration 0024): only the token's SHA-256 is kept. */
export interface TrackingLinksTable {
  organisation_id: string
  job_id: string
  token_hash: string
  eta: Timestamp | null
  created_at: Timestamp
}

export type CustomerMessageKind = 'EN_ROUTE' | 'COMPLETED'
export type CustomerMessageStatus = 'PENDING' | 'SENT' | 'FAILED'

/** An email to a job's customer, claimed from the outbox by the webhook dispatcher (migration 0024). */
export interface CustomerMessagesTable {
  id: string
  organisation_id: string
  event_id: string
  job_id: string
  kind: CustomerMessageKind
  recipient: string
  subject: string
  body: string
  status: CustomerMessageStatus
  error: string | null
  duration_ms: number | null
  created_at: Timestamp
  completed_at: Timestamp | null
}

export type AbsenceReason = 'HOLIDAY' | 'SICK' | 'TRAINING' | 'OTHER'

/** A worker away for whole days, or part of one day (migration 0025). Dates `YYYY-MM-DD`, inclusive. */
export interface AbsencesTable {
  id: string
  organisation_id: string
  user_id: string
  start_date: string
  end_date: string
  start_time: string | null
  end_time: string | null
  reason: AbsenceReason
  note: string | null
  created_at: Timestamp
}

/** A shift template's hours on one date, or the shift off that date (migration 0025). */
export interface ShiftDateChangesTable {
  id: string
  organisation_id: string
  shift_id: string
  date: string
  start_time: string | null
  end_time: string | null
  is_off: Bool
  created_at: Timestamp
  updated_at: Timestamp
}

export interface CalendarOffsetsTable {
  n: number
}

/** A booking window offered by POST /availability, held for ten minutes (migration 0034). */
export interface BookingHoldsTable {
  id: string
  organisation_id: string
  token_hash: string
  shift_id: string
  user_id: string
  date: string
  window_start: Timestamp
  window_end: Timestamp
  customer_id: string | null
  latitude: string
  longitude: string
  service_duration: number
  tag_ids: string
  expires_at: Timestamp
  used_at: Timestamp | null
  created_at: Timestamp
}

export interface Database {
  organisations: OrganisationsTable
  users: UsersTable
  locations: LocationsTable
  capacity_dimensions: CapacityDimensionsTable
  tags: TagsTable
  vehicles: VehiclesTable
  vehicle_tags: VehicleTagsTable
  vehicle_capacities: VehicleCapacitiesTable
  shifts: ShiftsTable
  shift_breaks: ShiftBreaksTable
  customers: CustomersTable
  jobs: JobsTable
  job_number_counters: JobNumberCountersTable
  job_tags: JobTagsTable
  job_demands: JobDemandsTable
  api_keys: ApiKeysTable
  outbox_events: OutboxEventsTable
  automations: AutomationsTable
  webhook_executions: WebhookExecutionsTable
  form_submissions: FormSubmissionsTable
  form_templates: FormTemplatesTable
  job_counts: JobCountsTable
  job_days: JobDaysTable
  job_long_windows: JobLongWindowsTable
  job_day_counts: JobDayCountsTable
  calendar_offsets: CalendarOffsetsTable
  route_plans: RoutePlansTable
  user_sessions: UserSessionsTable
  server_secrets: ServerSecretsTable
  idempotency_keys: IdempotencyKeysTable
  idempotency_claims: IdempotencyClaimsTable
  positions: PositionsTable
  job_etas: JobEtasTable
  leases: LeasesTable
  tracking_links: TrackingLinksTable
  customer_messages: CustomerMessagesTable
  absences: AbsencesTable
  shift_date_changes: ShiftDateChangesTable
  job_series: JobSeriesTable
  job_series_exceptions: JobSeriesExceptionsTable
  imports: ImportsTable
  attachments: AttachmentsTable
  attachment_chunks: AttachmentChunksTable
  job_requirements: JobRequirementsTable
  job_completion_notes: JobCompletionNotesTable
  booking_holds: BookingHoldsTable
}

export type JobRow = Selectable<JobsTable>
export type NewJob = Insertable<JobsTable>
export type JobUpdate = Updateable<JobsTable>
export type CustomerRow = Selectable<CustomersTable>
export type NewCustomer = Insertable<CustomersTable>
export type CustomerUpdate = Updateable<CustomersTable>
export type LocationRow = Selectable<LocationsTable>
export type VehicleRow = Selectable<VehiclesTable>
export type ShiftRow = Selectable<ShiftsTable>
export type ShiftBreakRow = Selectable<ShiftBreaksTable>
export type AbsenceRow = Selectable<AbsencesTable>
export type ShiftDateChangeRow = Selectable<ShiftDateChangesTable>
export type ApiKeyRow = Selectable<ApiKeysTable>
export type OrganisationRow = Selectable<OrganisationsTable>
export type OrganisationUpdate = Updateable<OrganisationsTable>
export type AutomationRow = Selectable<AutomationsTable>
export type WebhookExecutionRow = Selectable<WebhookExecutionsTable>
export type UserSessionRow = Selectable<UserSessionsTable>
export type OutboxEventRow = Selectable<OutboxEventsTable>
export type FormSubmissionRow = Selectable<FormSubmissionsTable>
export type FormTemplateRow = Selectable<FormTemplatesTable>
export type RoutePlanRow = Selectable<RoutePlansTable>
export type IdempotencyClaimRow = Selectable<IdempotencyClaimsTable>
export type CustomerMessageRow = Selectable<CustomerMessagesTable>
export type AttachmentRow = Selectable<AttachmentsTable>

/** What repository functions take first: the database, or the transaction a service opened. */
export type Executor = Kysely<Database> | Transaction<Database>
