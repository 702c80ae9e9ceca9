// The execution log, used across the organisation (Settings › Webhook logs) and on one automation's
// page: filters by status and event (server-side), a paged table, and the detail sheet of the row in
// the URL (?execution=…), so a delivery can be linked to.
import { useListParams } from '../../lib/search-params'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import type { Column } from '../../ui/data-table'
import { DateTime } from '../../ui/date-time'
import { FilterSelect } from '../../ui/filters'
import { NoMatches, PagedTable } from '../../ui/list-page'
import { EmptyState } from '../../ui/states'
import { EVENTS, type EventName } from '../automations/events'
import { ExecutionSheet } from './execution-sheet'
import { ExecutionStatus, formatDuration } from './execution-status'
import { type Execution, type ExecutionFilters, useExecutions } from './queries'

const STATUSES = [
  { value: 'SUCCESS', label: 'Succeeded' },
  { value: 'FAILED', label: 'Failed' },
  { value: 'PENDING', label: 'Pending' },
] as const
type StatusFilter = (typeof STATUSES)[number]['value']

export function ExecutionLog({
  automationId,
  automationNames,
  emptyHint,
}: {
  /** One automation's log; without it, the organisation's. */
  automationId?: string
  /** Names to show in the Automation column (organisation log). */
  automationNames?: ReadonlyMap<string, string>
  emptyHint?: string
}) {
  const params = useListParams()
  const status = params.get('status') as StatusFilter | undefined
  const event = params.get('event') as EventName | undefined
  const filterAutomation = automationId ?? params.get('automation')
  const filters: ExecutionFilters = {
    ...(status ? { status } : {}),
    ...(event ? { event } : {}),
    ...(filterAutomation ? { automationId: filterAutomation } : {}),
  }
  const executions = useExecutions(params.page, filters)
  const open = params.get('execution')
  const openAutomation = params.get('executionAutomation') ?? automationId
  const filtered = Boolean(status || event || (!automationId && filterAutomation))

  const openExecution = (execution: Pick<Execution, 'id' | 'automationId'>) =>
    params.set(
      { execution: execution.id, executionAutomation: automationId ? undefined : execution.automationId },
      { keepPage: true },
    )

  const columns: Column<Execution>[] = [
    {
      header: 'Status',
      cell: (e) => (
        <span className="row" style={{ gap: 4, flexWrap: 'nowrap' }}>
          <ExecutionStatus execution={e} />
          {e.isTest && <Badge tone="purple">Test</Badge>}
        </span>
      ),
    },
    {
      header: 'Event',
      cell: (e) => (
        <button
          type="button"
          className="btn-link"
          onClick={(click) => {
            click.stopPropagation()
            openExecution(e)
          }}
        >
          {e.event}
        </button>
      ),
    },
    ...(automationId
      ? []
      : [{ header: 'Automation', cell: (e: Execution) => automationNames?.get(e.automationId) ?? '—' }]),
    { header: 'Time', cell: (e) => <DateTime value={e.createdAt} seconds /> },
    { header: 'Duration', align: 'right', cell: (e) => formatDuration(e.durationMs) },
    {
      header: 'Error',
      cell: (e) => (e.error ? <span className="muted">{truncate(e.error, 60)}</span> : null),
    },
  ]

  return (
    <div className="section">
      <div className="filters">
        <FilterSelect
          label="Status"
          value={status}
          anyLabel="Any status"
          options={STATUSES}
          onChange={(value) => params.set({ status: value })}
        />
        <FilterSelect
          label="Event"
          value={event}
          anyLabel="All events"
          options={EVENTS}
          onChange={(value) => params.set({ event: value })}
        />
        {!automationId && automationNames && automationNames.size > 0 && (
          <FilterSelect
            label="Automation"
            value={filterAutomation}
            anyLabel="All automations"
            options={[...automationNames].map(([id, name]) => ({ value: id, label: name }))}
            onChange={(value) => params.set({ automation: value })}
          />
        )}
        <Button variant="ghost" onClick={() => executions.refetch()} pending={executions.isFetching}>
          Refresh
        </Button>
      </div>
      <PagedTable
        label="Webhook deliveries"
        columns={columns}
        rows={executions.data?.executions}
        rowKey={(e) => e.id}
        query={executions}
        onRowClick={openExecution}
        selectedKey={open}
        pagination={executions.data?.pagination}
        onPage={(page) => params.set({ page })}
        noun="deliveries"
        empty={
          filtered ? (
            <NoMatches
              title="No deliveries match these filters"
              onClear={() => params.set({ status: undefined, event: undefined, automation: undefined })}
            />
          ) : (
            <EmptyState
              icon="📭"
              title="No deliveries yet"
              description={
                emptyHint ?? 'Deliveries appear here as soon as an active automation’s event happens.'
              }
            />
          )
        }
      />
      {open && openAutomation && (
        <ExecutionSheet
          key={open}
          automationId={openAutomation}
          executionId={open}
          automationName={automationNames?.get(openAutomation)}
          onClose={() =>
            params.set({ execution: undefined, executionAutomation: undefined }, { keepPage: true })
          }
          onOpen={openExecution}
        />
      )}
    </div>
  )
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text
}
