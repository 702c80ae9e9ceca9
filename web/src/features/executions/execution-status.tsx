import { Badge } from '../../ui/badge'
import type { Execution } from './queries'

/** "200 Succeeded", "500 Failed", "Failed" (no answer), "Pending" — colour and words. */
export function ExecutionStatus({ execution }: { execution: Pick<Execution, 'status' | 'httpStatus'> }) {
  const code = execution.httpStatus === null ? '' : `${execution.httpStatus} `
  if (execution.status === 'PENDING') return <Badge tone="blue">Pending</Badge>
  if (execution.status === 'SUCCESS') return <Badge tone="green">{code}Succeeded</Badge>
  return <Badge tone="red">{code}Failed</Badge>
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—'
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}
