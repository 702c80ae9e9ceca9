// The latest plans of the organisation, newest first: open one to see its result again.
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import { type Column, DataTable } from '../../ui/data-table'
import { DateTime } from '../../ui/date-time'
import { EmptyState } from '../../ui/states'
import type { Depot } from '../board/board-toolbar'
import { type RoutePlanSummary, useRoutePlans } from './queries'
import { dayRange, MODES, PLAN_STATUS } from './wording'

export function RecentPlans({
  depots,
  selected,
  onOpen,
}: {
  depots: Depot[]
  selected: string | undefined
  onOpen: (id: string) => void
}) {
  const plans = useRoutePlans()
  const depotName = (id: string | null) =>
    id === null ? 'Every depot' : (depots.find((d) => d.id === id)?.name ?? 'A depot')
  const columns: Column<RoutePlanSummary>[] = [
    { header: 'Made', cell: (p) => <DateTime value={p.createdAt} relative /> },
    { header: 'Days', cell: (p) => (p.dateTo ? dayRange(p.date, p.dateTo) : p.date) },
    { header: 'Depot', cell: (p) => depotName(p.locationId) },
    { header: 'Mode', cell: (p) => MODES.find((m) => m.value === p.mode)?.label ?? p.mode },
    {
      header: 'Status',
      cell: (p) => <Badge tone={PLAN_STATUS[p.status].tone}>{PLAN_STATUS[p.status].label}</Badge>,
    },
    {
      header: 'Result',
      cell: (p) =>
        p.totals ? (
          `${p.totals.assignedJobs} planned · ${p.totals.unassignedJobs} not`
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      className: 'cell-actions',
      cell: (p) => (
        <Button
          size="sm"
          onClick={() => onOpen(p.id)}
          aria-label={`Open the plan for ${p.dateTo ? `${p.date} to ${p.dateTo}` : p.date} made at ${p.createdAt}`}
        >
          Open
        </Button>
      ),
    },
  ]
  return (
    <section className="section" aria-labelledby="recent-plans-heading">
      <h2 id="recent-plans-heading">Recent plans</h2>
      <DataTable
        label="Recent plans"
        columns={columns}
        rows={plans.data?.routePlans}
        rowKey={(p) => p.id}
        selectedKey={selected ?? null}
        isLoading={plans.isPending}
        error={plans.error}
        onRetry={() => plans.refetch()}
        loadingRows={3}
        empty={<EmptyState title="No plans yet" description="Run the optimiser above to plan a day." />}
      />
    </section>
  )
}
