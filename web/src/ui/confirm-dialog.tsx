import type { ReactNode } from 'react'
import { errorMessage } from '../api/errors'
import { Banner } from './banner'
import { Button } from './button'
import { Dialog } from './dialog'

/**
 * Asks before a destructive or irreversible action. `onConfirm` runs the action (a mutation's
 * mutate); the dialog shows it pending and any error, and the caller closes it on success.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  tone = 'danger',
  pending = false,
  error,
  onConfirm,
  onClose,
}: {
  title: string
  children: ReactNode
  confirmLabel: string
  tone?: 'danger' | 'primary'
  pending?: boolean
  error?: unknown
  onConfirm: () => void
  onClose: () => void
}) {
  return (
    <Dialog
      title={title}
      onClose={onClose}
      onSubmit={onConfirm}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant={tone} pending={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="stack">{children}</div>
      {error ? <Banner tone="danger">{errorMessage(error)}</Banner> : null}
    </Dialog>
  )
}
