// The inputs of the scenarios, read from the working copy by direct SQL before the service starts:
// which job to fetch, where 90 % depth is, which customers and depots a new job may name, and which
// jobs can be patched (CREATED or ASSIGNED, so never a 422).
import { type RawBuilder, sql } from 'kysely'
import { createDatabase } from '../src/db/database.js'
import { encodeCursor } from '../src/http/cursor.js'
import type { DatasetMarker } from './dataset.js'
import { SEARCH_TERM } from './dataset-names.js'
import { TARGET_DATE } from './dataset-rows.js'
import type { Fixtures } from './scenarios.js'

const DEEP_FRACTION = 0.9
const JOBS_PAGE_SIZE = 20
const PATCH_JOBS = 1_000
const CUSTOMERS = 200

export async function loadFixtures(url: string, marker: DatasetMarker): Promise<Fixtures> {
  const { db, destroy } = createDatabase(url)
  const org = marker.targetOrganisationId
  try {
    const ids = async (query: RawBuilder<{ id: string }>) =>
      (await query.execute(db)).rows.map((row) => row.id)

    const counted = await sql<{ total: number | string }>`
      SELECT count(*) AS total FROM jobs WHERE organisation_id = ${org} AND deleted_at IS NULL`.execute(db)
    const liveJobs = Number(counted.rows[0]?.total ?? 0)
    const depth = Math.floor(liveJobs * DEEP_FRACTION)

    const deep = await sql<{ created_at: string; id: string }>`
      SELECT created_at, id FROM jobs WHERE organisation_id = ${org} AND deleted_at IS NULL
      ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${depth}`.execute(db)
    const deepRow = deep.rows[0]
    if (!deepRow) throw new Error(`dataset has no job at depth ${depth}`)

    // The single-job shape at its fullest: customer, assigned worker, tags and demands.
    const [jobId] = await ids(sql<{ id: string }>`
      SELECT j.id FROM jobs j
      WHERE j.organisation_id = ${org} AND j.deleted_at IS NULL
        AND j.customer_id IS NOT NULL AND j.assigned_user_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM job_tags t WHERE t.job_id = j.id)
        AND EXISTS (SELECT 1 FROM job_demands d WHERE d.job_id = j.id)
      ORDER BY j.created_at DESC, j.id DESC LIMIT 1 OFFSET 50`)
    if (!jobId) throw new Error('dataset has no job with tags and demands')

    const patchable = (offset: number) =>
      ids(sql<{ id: string }>`
        SELECT id FROM jobs
        WHERE organisation_id = ${org} AND deleted_at IS NULL AND status IN ('CREATED', 'ASSIGNED')
        ORDER BY created_at DESC, id DESC LIMIT ${PATCH_JOBS} OFFSET ${offset}`)
    // From the middle of the list when there are enough, so the rows are not all recent ones.
    let patchIds = await patchable(Math.floor(liveJobs * 0.15))
    if (patchIds.length < PATCH_JOBS) patchIds = await patchable(0)

    // Totals the service must report for the list scenarios, counted directly.
    const dayStart = `${TARGET_DATE}T00:00:00.000Z`
    const dayEnd = new Date(Date.parse(dayStart) + 86_400_000).toISOString()
    const onTargetDate = await sql<{ total: number | string }>`
      SELECT count(*) AS total FROM jobs
      WHERE organisation_id = ${org} AND deleted_at IS NULL AND status = 'ASSIGNED'
        AND (earliest_start IS NOT NULL OR latest_end IS NOT NULL)
        AND (latest_end IS NULL OR latest_end >= ${dayStart})
        AND (earliest_start IS NULL OR earliest_start < ${dayEnd})`.execute(db)
    const pattern = `%${SEARCH_TERM.toLowerCase()}%`
    const searched = await sql<{ total: number | string }>`
      SELECT count(*) AS total FROM customers
      WHERE organisation_id = ${org} AND (lower(name) LIKE ${pattern} OR lower(address) LIKE ${pattern})`.execute(
      db,
    )

    const customerIds = await ids(sql<{ id: string }>`
      SELECT id FROM customers WHERE organisation_id = ${org} ORDER BY id LIMIT ${CUSTOMERS}`)
    const locationIds = await ids(sql<{ id: string }>`
      SELECT id FROM locations WHERE organisation_id = ${org} ORDER BY id`)

    return {
      organisationId: org,
      apiKey: marker.apiKey,
      liveJobs,
      jobId,
      deepCursor: encodeCursor({ at: deepRow.created_at, id: deepRow.id }),
      deepPage: Math.floor(depth / JOBS_PAGE_SIZE) + 1,
      targetDate: TARGET_DATE,
      search: SEARCH_TERM,
      customerIds,
      locationIds,
      patchIds,
      expectedTotals: {
        'jobs-list': liveJobs,
        'jobs-deep-offset': liveJobs,
        'jobs-filtered': Number(onTargetDate.rows[0]?.total ?? 0),
        'customers-search': Number(searched.rows[0]?.total ?? 0),
      },
    }
  } finally {
    await destroy()
  }
}
