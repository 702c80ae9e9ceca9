import { Badge } from '../../ui/badge'
import type { Automation } from './queries'

export function AutomationStatus({ automation }: { automation: Pick<Automation, 'isActive'> }) {
  return automation.isActive ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>
}
