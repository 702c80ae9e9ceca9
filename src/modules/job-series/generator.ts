// Occurrences become ordinary jobs SERIES_HORIZON_DAYS ahead: when a series is written (service.ts),
// and every SERIES_GENERATE_SECONDS on the instance holding the lease (the live refresh's kind of
// lease, db/leases.ts), so the horizon moves on with the days. Each job is made by the jobs service's
// createJob, so JOB_CREATED fires once per occurrence and job numbers are taken as for POST /jobs.
// Whatever makes, changes or cancels a series' jobs — the generator, and every write of the series —
// does it in one transaction holding the series' row lock (repository.lockSeries): two at once (a
// lease handed over, a PATCH racing the tick) run one after the other, the second seeing the first's
// jobs. The unique (series_id, occurrence_date) index stays as the last line of defence.
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.js'
import { ambientDatabase, inAmbientTransaction } from '../../db/ambient-transaction.js'
import { LeasedTask, logTaskFailure, type TaskLog } from '../../db/leases.js'
import type { Database } from '../../db/types.js'
import type { CreateJobBody } from '../jobs/schemas.js'
import { createJob } from '../jobs/service.js'
import { timeZoneOfDepot } from '../locations/service.js'
import {
  horizonEnd,
  jobWindowOf,
  localDateOf,
  type Occurrence,
  occurrencesWithin,
  planOf,
} from './occurrences.js'
import * as repository from './repository.js'
import type { JobTemplate } from './schemas.js'

export const SERIES_LEASE = 'job-series'

export interface SeriesSettings {
  /** Occurrences become jobs this many days ahead, today included (SERIES_HORIZON_DAYS). */
  horizonDays: number
  /** 0: this process never runs the periodic generation (SERIES_GENERATE_SECONDS). */
  generateSeconds: number
}

export const templateOf = (row: repository.SeriesRow): JobTemplate => JSON.parse(row.template) as JobTemplate

/** The time zone a series' dates and window are read in: its template's depot's, else the organisation's. */
export function seriesTimeZone(db: Kysely<Database>, row: repository.SeriesRow): Promise<string> {
  return timeZoneOfDepot(db, row.organisation_id, templateOf(row).locationId ?? null)
}

/** POST /jobs' body for an occurrence: the template's fields and the occurrence's window. */
export function jobBodyOf(template: JobTemplate, occurrence: Occurrence, timeZone: string): CreateJobBody {
  const { tagIds: _tags, demands: _demands, ...fields } = template
  return { ...fields, ...jobWindowOf(occurrence.onDate, occurrence.window, timeZone) }
}

/**
 * Makes the jobs of the series' occurrences from today (in its depot's calendar) to the horizon that
 * have none yet; answers how many it made. The caller holds the series' lock (see the top).
 */
export async function generateSeries(
  db: Kysely<Database>,
  row: repository.SeriesRow,
  now: number,
  horizonDays: number,
): Promise<number> {
  const timeZone = await seriesTimeZone(db, row)
  const today = localDateOf(now, timeZone)
  const plan = planOf(row)
  const exceptions = await repository.listExceptions(db, row.organisation_id, row.id)
  const due = occurrencesWithin(plan, exceptions, today, horizonEnd(today, horizonDays))
  const made = await repository.listOccurrenceJobs(
    db,
    row.organisation_id,
    row.id,
    due.map((o) => o.date),
  )
  const taken = new Set(made.map((job) => job.occurrence_date))
  const template = templateOf(row)
  let created = 0
  for (const occurrence of due) {
    if (taken.has(occurrence.date)) continue
    await createJob(db, row.organisation_id, jobBodyOf(template, occurrence, timeZone), {
      seriesId: row.id,
      occurrenceDate: occurrence.date,
      tagIds: template.tagIds ?? [],
      demands: template.demands ?? [],
    })
    created++
  }
  return created
}

/** The background generation: every series of every organisation, on one instance at a time. */
export class SeriesGenerator {
  private readonly periodic: LeasedTask
  /** The database as the services see it inside the generator's transactions (they join them). */
  private readonly joined: Kysely<Database>

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly settings: SeriesSettings,
    private readonly log: TaskLog,
  ) {
    this.joined = ambientDatabase(db)
    this.periodic = new LeasedTask(
      db,
      clock,
      {
        name: SERIES_LEASE,
        periodSeconds: settings.generateSeconds,
        what: 'job series generation',
        run: async (now) => {
          await this.generateAll(now)
        },
      },
      log,
    )
  }

  start(): void {
    this.periodic.start()
  }

  close(): Promise<void> {
    return this.periodic.close()
  }

  /** The periodic run, if this process holds the lease (tests call it). Whether it ran here. */
  tick(): Promise<boolean> {
    return this.periodic.tick()
  }

  /**
   * Every live series' jobs up to the horizon as of `now` (the generator's clock by default), each
   * series in a transaction of its own holding its lock; one that fails is logged and the others
   * still run. How many jobs it made.
   */
  async generateAll(now = this.clock()): Promise<number> {
    // Series end on a date of their own calendar: a day's margin keeps one ending today in any zone.
    const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10)
    let created = 0
    for (const listed of await repository.listLiveSeries(this.db, yesterday)) {
      try {
        created += await inAmbientTransaction(this.db, async () => {
          // Read again under the lock: a write that held it may have changed or ended the series.
          const row = await repository.lockSeries(this.joined, listed.organisation_id, listed.id)
          if (!row || (row.end_date !== null && row.end_date < yesterday)) return 0
          return generateSeries(this.joined, row, now, this.settings.horizonDays)
        })
      } catch (error) {
        logTaskFailure(this.log, 'job series generation', error, {
          organisationId: listed.organisation_id,
          seriesId: listed.id,
        })
      }
    }
    return created
  }
}
