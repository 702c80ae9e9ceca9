import type { RoutePlanRow } from '../../db/types.js'
import type {
  PlanBalance,
  PlanMode,
  PlanPhase,
  PlanStatus,
  RoutePlan,
  RoutePlanProgress,
  RoutePlanResult,
  RoutePlanSummary,
} from './schemas.js'

const parsed = <T>(json: string | null): T | null => (json === null ? null : (JSON.parse(json) as T))

/** Plans finished before progress had a phase only ever reported it while searching. */
function progressOf(json: string | null): RoutePlan['progress'] {
  const progress = parsed<Omit<RoutePlanProgress, 'phase'> & { phase?: PlanPhase }>(json)
  return progress === null ? null : { ...progress, phase: progress.phase ?? 'SEARCHING' }
}

function common(row: RoutePlanRow) {
  return {
    id: row.id,
    status: row.status as PlanStatus,
    date: row.plan_date,
    dateTo: row.date_to ?? null,
    locationId: row.location_id,
    mode: row.mode as PlanMode,
    timeLimitSeconds: row.time_limit_seconds,
    at: row.plan_at === null ? null : new Date(row.plan_at).toISOString(),
    stability: row.stability,
    balance: row.balance as PlanBalance,
    jobIds: parsed<string[]>(row.job_ids),
    shiftIds: parsed<string[]>(row.shift_ids),
    progress: progressOf(row.progress),
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    appliedAt: row.applied_at,
  }
}

export function serializeRoutePlan(row: RoutePlanRow): RoutePlan {
  return { ...common(row), result: parsed<RoutePlanResult>(row.result) }
}

export function serializeRoutePlanSummary(row: RoutePlanRow): RoutePlanSummary {
  return { ...common(row), totals: parsed<RoutePlanResult>(row.result)?.totals ?? null }
}
