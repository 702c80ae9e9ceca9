// Settings › Webhook logs: every delivery of every automation of the organisation.
import { useMemo } from 'react'
import { ButtonLink } from '../../ui/button'
import { PageHeader } from '../../ui/page-header'
import { useAutomations } from '../automations/queries'
import { CustomerMessages } from './customer-messages'
import { ExecutionLog } from './execution-log'

export function WebhookLogsPage() {
  // Names for the Automation column and filter: an organisation has a handful of automations.
  const automations = useAutomations(1, {}, 100)
  const names = useMemo(
    () => new Map((automations.data?.automations ?? []).map((a) => [a.id, a.name] as const)),
    [automations.data],
  )
  return (
    <div className="page">
      <PageHeader
        breadcrumbs={[{ label: 'Automations', to: '/settings/automations' }]}
        title="Webhook logs"
        description="Every webhook delivery: one attempt each, no automatic retries. Open a delivery to see the request and the answer, and redeliver it."
        actions={<ButtonLink to="/settings/automations">Manage automations</ButtonLink>}
      />
      <ExecutionLog automationNames={names} />
      <CustomerMessages />
    </div>
  )
}
