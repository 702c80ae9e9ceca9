// What the raw yardstick routes for GET /jobs/:id share (bench/pg-raw.ts, bench/sqlite-raw.ts): the
// job's response schema and the one SELECT that reads its row, with the service's column names.
import { Type } from '@sinclair/typebox'

const text = Type.String()
const nullableText = Type.Union([Type.String(), Type.Null()])
const nullableInteger = Type.Union([Type.Integer(), Type.Null()])
const Job = Type.Object({
  id: text,
  title: text,
  description: nullableText,
  status: text,
  priority: text,
  customerId: nullableText,
  locationId: nullableText,
  jobLatitude: nullableText,
  jobLongitude: nullableText,
  serviceDuration: Type.Integer(),
  timeWindowType: text,
  earliestStart: nullableText,
  latestEnd: nullableText,
  scheduledStart: nullableText,
  scheduledEnd: nullableText,
  assignedUserId: nullableText,
  shiftId: nullableText,
  startedAt: nullableText,
  completedAt: nullableText,
  actualDuration: nullableInteger,
  createdAt: text,
  updatedAt: text,
})
export const JobResponse = Type.Object({ data: Type.Object({ job: Job }), message: text })

export const JOB_NOT_FOUND = { error: 'Job not found', code: 'NOT_FOUND' }

/** The live job by organisation and id; the placeholders are the dialect's (`$1`/`$2` or `?`). */
export const jobByIdSql = (organisationParam: string, idParam: string) =>
  `SELECT id, title, description, status, priority, customer_id AS "customerId",
     location_id AS "locationId", job_latitude AS "jobLatitude", job_longitude AS "jobLongitude",
     service_duration AS "serviceDuration", time_window_type AS "timeWindowType",
     earliest_start AS "earliestStart", latest_end AS "latestEnd",
     scheduled_start AS "scheduledStart", scheduled_end AS "scheduledEnd",
     assigned_user_id AS "assignedUserId", shift_id AS "shiftId", started_at AS "startedAt",
     completed_at AS "completedAt", actual_duration AS "actualDuration",
     created_at AS "createdAt", updated_at AS "updatedAt"
   FROM jobs WHERE organisation_id = ${organisationParam} AND id = ${idParam} AND deleted_at IS NULL`
