// The single-job read (GET /jobs/:id, and every write's answer) as one statement: the job, its
// customer, location and worker, and its tags and demands aggregated as JSON — one round trip
// instead of three, written once per dialect (see db/fast-path/).
import type { HotQuery } from '../../db/fast-path/index.js'

const columns = `jobs.*,
  customers.name AS customer_name, customers.address AS customer_address,
  customers.latitude AS customer_latitude, customers.longitude AS customer_longitude,
  locations.name AS location_name, users.name AS assigned_user_name, users.email AS assigned_user_email`

const joins = `FROM jobs
  LEFT JOIN customers ON customers.id = jobs.customer_id AND customers.organisation_id = jobs.organisation_id
  LEFT JOIN locations ON locations.id = jobs.location_id AND locations.organisation_id = jobs.organisation_id
  LEFT JOIN users ON users.id = jobs.assigned_user_id AND users.organisation_id = jobs.organisation_id`

// Both start from the job's own rows (the job_id prefix of their primary key) and then read each
// tag or dimension by primary key. On SQLite, CROSS JOIN fixes that order, and `organisation_id || ''`
// (the same value, not indexable; as in vehicles/repository.ts) keeps the planner from walking every
// row of the organisation through an index on organisation_id.
const tagsOfJob = `FROM job_tags CROSS JOIN tags
  WHERE tags.id = job_tags.tag_id AND tags.organisation_id = job_tags.organisation_id
    AND job_tags.organisation_id || '' = jobs.organisation_id AND job_tags.job_id = jobs.id`

const demandsOfJob = `FROM job_demands CROSS JOIN capacity_dimensions AS dimension
  WHERE dimension.id = job_demands.capacity_dimension_id AND dimension.organisation_id = job_demands.organisation_id
    AND job_demands.organisation_id || '' = jobs.organisation_id AND job_demands.job_id = jobs.id`

export const JOB_DETAIL: HotQuery = {
  name: 'job_detail_v4',
  sqlite: `SELECT ${columns},
    (SELECT json_group_array(json_object('id', t.id, 'name', t.name))
       FROM (SELECT tags.id, tags.name ${tagsOfJob} ORDER BY tags.name) AS t) AS tags_json,
    (SELECT json_group_array(json_object('id', d.id, 'key', d.key, 'label', d.label, 'required_value', d.required_value))
       FROM (SELECT dimension.id, dimension.key, dimension.label, job_demands.required_value
             ${demandsOfJob} ORDER BY dimension.key) AS d) AS demands_json
    ${joins}
    WHERE jobs.organisation_id = ? AND jobs.id = ? AND jobs.deleted_at IS NULL`,
  postgres: `SELECT ${columns},
    (SELECT coalesce(json_agg(json_build_object('id', tags.id, 'name', tags.name) ORDER BY tags.name), '[]')
       ${tagsOfJob}) AS tags_json,
    (SELECT coalesce(json_agg(json_build_object('id', dimension.id, 'key', dimension.key, 'label', dimension.label,
              'required_value', job_demands.required_value) ORDER BY dimension.key), '[]')
       ${demandsOfJob}) AS demands_json
    ${joins}
    WHERE jobs.organisation_id = $1 AND jobs.id = $2 AND jobs.deleted_at IS NULL`,
}

/** The same, the job's row locked until the transaction ends (SQLite's write transactions are exclusive). */
export const JOB_DETAIL_FOR_UPDATE: HotQuery = {
  name: 'job_detail_for_update_v1',
  sqlite: JOB_DETAIL.sqlite,
  postgres: `${JOB_DETAIL.postgres}
    FOR UPDATE OF jobs`,
}

// What a write must know of the customer and the depot it sets, in one statement: whether each exists
// in the organisation, the customer's default service duration and the fields the answer shows. The
// depot is key-share locked on PostgreSQL (as db/references.ts does), so it cannot go before the write
// commits; the customer is protected by the composite foreign key. Parameters, in the order of the
// text (SQLite's `?` are positional): organisation and customer id (or null), organisation and
// location id (or null).
const references = (p: (n: number) => string, lock: string) => `SELECT
    customers.service_duration AS customer_service_duration, customers.name AS customer_name,
    customers.address AS customer_address, customers.latitude AS customer_latitude,
    customers.longitude AS customer_longitude, location.name AS location_name
  FROM (SELECT 1 AS one) AS one
  LEFT JOIN customers ON customers.organisation_id = ${p(1)} AND customers.id = ${p(2)}
  LEFT JOIN (SELECT locations.name FROM locations
      WHERE locations.organisation_id = ${p(3)} AND locations.id = ${p(4)}${lock}) AS location ON 1 = 1`

export const JOB_REFERENCES: HotQuery = {
  name: 'job_references_v1',
  sqlite: references(() => '?', ''),
  postgres: references((n) => `$${n}`, ' FOR KEY SHARE'),
}
