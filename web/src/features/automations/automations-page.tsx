// Settings › Automations: "when this event happens, POST it to this URL". The list (server-paged,
// filtered by event and state), create, and a link to each automation's page and to all logs.
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useListParams } from '../../lib/search-params'
import { Button, ButtonLink } from '../../ui/button'
import type { Column } from '../../ui/data-table'
import { DateTime } from '../../ui/date-time'
import { DownloadListCsv } from '../../ui/download-list-csv'
import { ListPage } from '../../ui/list-page'
import { EmptyState } from '../../ui/states'
import { CreateAutomationDialog } from './automation-form-dialog'
import { AutomationStatus } from './automation-status'
import { EVENTS, type EventName, eventLabel } from './events'
import { AUTOMATION_CSV, type Automation, allAutomations, useAutomations } from './queries'

const STATES = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
]

export function AutomationsPage() {
  const params = useListParams()
  const navigate = useNavigate()
  const event = params.get('event') as EventName | undefined
  const state = params.get('state')
  const filters = { ...(event ? { event } : {}), ...(state ? { isActive: state === 'active' } : {}) }
  const automations = useAutomations(params.page, filters)
  const [creating, setCreating] = useState(false)

  const columns: Column<Automation>[] = [
    {
      header: 'Name',
      cell: (a) => (
        <Link to={`/settings/automations/${a.id}`}>
          <strong>{a.name}</strong>
        </Link>
      ),
    },
    { header: 'Trigger', cell: (a) => eventLabel(a.event) },
    { header: 'Action', cell: () => 'Send webhook' },
    { header: 'Endpoint', cell: (a) => <span className="mono">{shortUrl(a.url)}</span> },
    { header: 'Status', cell: (a) => <AutomationStatus automation={a} /> },
    { header: 'Created', cell: (a) => <DateTime value={a.createdAt} dateOnly /> },
  ]

  return (
    <ListPage
      title="Automations"
      description="Send your systems a signed webhook when something happens to a job. Delivery status and errors are in the logs."
      actions={
        <>
          <ButtonLink to="/settings/webhook-logs">View logs</ButtonLink>
          <DownloadListCsv
            filename="automations.csv"
            columns={AUTOMATION_CSV}
            load={() => allAutomations(filters)}
          />
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create automation
          </Button>
        </>
      }
      filters={{
        params,
        items: [
          { kind: 'select', param: 'event', label: 'Trigger event', anyLabel: 'All events', options: EVENTS },
          { kind: 'select', param: 'state', label: 'Status', anyLabel: 'Any status', options: STATES },
        ],
        noMatches: { title: 'No automations match these filters' },
      }}
      table={{
        label: 'Automations',
        columns,
        rows: automations.data?.automations,
        rowKey: (a) => a.id,
        query: automations,
        onRowClick: (a) => navigate(`/settings/automations/${a.id}`),
        pagination: automations.data?.pagination,
        onPage: (page) => params.set({ page }),
        noun: 'automations',
        empty: (
          <EmptyState
            icon="⚡"
            title="No automations yet"
            description="Create one to send job events (created, assigned, completed …) to your ERP, CRM or chat."
            action={
              <Button variant="primary" onClick={() => setCreating(true)}>
                Create automation
              </Button>
            }
          />
        ),
      }}
    >
      {creating && <CreateAutomationDialog onClose={() => setCreating(false)} />}
    </ListPage>
  )
}

/** The host and path, without query (which may hold a token) — the full URL is on the detail page. */
export function shortUrl(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`
  } catch {
    return url
  }
}
