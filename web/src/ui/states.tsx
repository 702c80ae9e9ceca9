// The designed states of every data view: loading, empty, error. Lists use them through DataTable;
// pages and panels use them directly.
import type { ReactNode } from 'react'
import { errorMessage } from '../api/errors'
import { Button } from './button'

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />
}

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  )
}

export function EmptyState({
  title,
  description,
  action,
  icon = '∅',
}: {
  title: string
  description?: ReactNode
  action?: ReactNode
  icon?: string
}) {
  return (
    <div className="state">
      <div className="state-icon" aria-hidden="true">
        {icon}
      </div>
      <div className="state-title">{title}</div>
      {description && <p>{description}</p>}
      {action}
    </div>
  )
}

export function ErrorState({
  error,
  title = 'This could not be loaded',
  onRetry,
}: {
  error: unknown
  title?: string
  onRetry?: () => void
}) {
  return (
    <div className="state state-error" role="alert">
      <div className="state-icon" aria-hidden="true">
        !
      </div>
      <div className="state-title">{title}</div>
      <p>{errorMessage(error)}</p>
      {onRetry && (
        <Button size="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  )
}
