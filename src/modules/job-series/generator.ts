// Occurrences become ordinary jobs SERIES_HORIZON_DAYS ahead: when a series is written (service.ts),
// and every SERIES_GENERATE_SECONDS on the instance holding the lease (the live refresh's kind of
// lease, live/service.ts), so the horizon moves on with the days. Each job is made by the jobs
// service's createJob, so JOB_CREATED fires once per occurrence and job numbers are taken as for
// POST /jobs. Two generators at once (a lease handed over, a write racing the tick) are harmless:
// the unique (series_id, occurrence_date) index refuses the second job and its create rolls back.
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.js'
import { isDatabaseUnavailable } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { Database } from '../../db/types.js'
import type { CreateJobBody } from '../jobs/schemas.js'
import { createJob } from '../jobs/service.js'
import { claimLease, releaseLease } from '../live/service.js'
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
 * have none yet; answers how many it made.
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
    try {
      await createJob(db, row.organisation_id, jobBodyOf(template, occurrence, timeZone), {
        seriesId: row.id,
        occurrenceDate: occurrence.date,
        tagIds: template.tagIds ?? [],
        demands: template.demands ?? [],
      })
      created++
    } catch (error) {
      // Another generator made this occurrence's job first: it exists once, as it should.
      if (!isUniqueViolation(error)) throw error
    }
  }
  return created
}

/** The background generation: every series of every organisation, on one instance at a time. */
export class SeriesGenerator {
  /** Who this process is in the lease table. */
  readonly holder = randomUUID()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly settings: SeriesSettings,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  ) {}

  start(): void {
    if (this.settings.generateSeconds <= 0 || this.timer) return
    this.timer = setInterval(() => {
      this.running = this.tick()
    }, this.settings.generateSeconds * 1000)
    this.timer.unref()
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    await this.running
    await releaseLease(this.db, SERIES_LEASE, this.holder).catch(() => {})
  }

  /**
   * One periodic run, only while this process holds the lease (taken or renewed for one and a half
   * periods, so another instance takes over if this one dies). Whether it ran here.
   */
  async tick(): Promise<boolean> {
    const now = this.clock()
    const period = Math.max(1, this.settings.generateSeconds) * 1000
    try {
      const held = await claimLease(
        this.db,
        SERIES_LEASE,
        this.holder,
        new Date(now).toISOString(),
        new Date(now + period * 1.5).toISOString(),
      )
      if (!held) return false
      await this.generateAll(now)
      return true
    } catch (error) {
      this.logFailure(error, {})
      return false
    }
  }

  /**
   * Every live series' jobs up to the horizon as of `now` (the generator's clock by default); a series
   * that fails (a template's customer deleted since) is logged and the others still run. How many
   * jobs it made.
   */
  async generateAll(now = this.clock()): Promise<number> {
    // Series end on a date of their own calendar: a day's margin keeps one ending today in any zone.
    const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10)
    let created = 0
    for (const row of await repository.listLiveSeries(this.db, yesterday)) {
      try {
        created += await generateSeries(this.db, row, now, this.settings.horizonDays)
      } catch (error) {
        this.logFailure(error, { organisationId: row.organisation_id, seriesId: row.id })
      }
    }
    return created
  }

  /** A database outage is expected to stop a run (the next one catches up): warn, not error. */
  private logFailure(error: unknown, context: { organisationId?: string; seriesId?: string }): void {
    const level = isDatabaseUnavailable(error) ? 'warn' : 'error'
    this.log[level]({ err: error, ...context }, 'job series generation failed')
  }
}
