import { Badge } from '../../ui/badge'
import type { ApiKeyScope } from './queries'

const TONE = { read: 'neutral', write: 'blue', admin: 'purple' } as const

export function ScopeBadges({ scopes }: { scopes: ApiKeyScope[] }) {
  return (
    <span className="row" style={{ gap: 4, flexWrap: 'nowrap' }}>
      {scopes.map((scope) => (
        <Badge key={scope} tone={TONE[scope]}>
          {scope}
        </Badge>
      ))}
    </span>
  )
}
