// The tracking page's arrival comes from the live forecast of the job's whole shift
// (live/forecast-day.ts): the shift, its jobs, breaks and positions read, then the route evaluated.
// Measured on a day of 20 stops (test/tracking-cost.test.ts; 2 shared cores, busy): the page's data
// took ~2.3 ms on SQLite and ~10 ms on PostgreSQL, ~0.8 / ~3 ms with the forecast kept. It is public and
// asks every 30 s; the link may be open in several tabs, or polled by anyone who has it. So a forecast
// is kept for a minute per job, in this process — the live refresh's own cadence, and well inside
// the window's 5-minute rounding — and a page open anywhere costs one forecast a minute.
//
// Why not job_etas: it holds the arrival last *announced* (JOB_ETA_CHANGED, moved by more than
// ETA_CHANGE_MINUTES), and no row at all for a stop on time — not the latest forecast.

/** How long a job's forecast is served before it is computed again. */
export const FORECAST_KEPT_MS = 60_000
/** Links followed at once that a process remembers; the oldest is forgotten first. */
const MAX_KEPT = 10_000

export class RecentForecasts<T> {
  private readonly kept = new Map<string, { at: number; value: T }>()

  constructor(
    private readonly keptMs = FORECAST_KEPT_MS,
    private readonly maxKept = MAX_KEPT,
  ) {}

  /** The value computed for `key` less than `keptMs` before `now`, else `compute()`'s, kept. */
  async get(key: string, now: number, compute: () => Promise<T>): Promise<T> {
    const kept = this.kept.get(key)
    if (kept && now >= kept.at && now - kept.at < this.keptMs) return kept.value
    const value = await compute()
    this.kept.delete(key)
    this.kept.set(key, { at: now, value })
    if (this.kept.size > this.maxKept) {
      const oldest = this.kept.keys().next().value
      if (oldest !== undefined) this.kept.delete(oldest)
    }
    return value
  }
}
