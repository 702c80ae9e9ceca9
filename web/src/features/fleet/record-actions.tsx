// What a fleet record's row offers: Edit and Delete, named for the record (`Edit depot North
// Yard`), and the confirmation a deletion asks for (depots, vehicles, tags, capacity dimensions),
// which says why a record in use stays.
import type { ReactNode } from 'react'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { useToast } from '../../ui/toast'

export function RowActions({
  noun,
  name,
  onEdit,
  onDelete,
}: {
  noun: string
  name: string
  onEdit: () => void
  onDelete: () => void
}) {
  return (
    <span className="row" style={{ justifyContent: 'flex-end', flexWrap: 'nowrap' }}>
      <Button size="sm" onClick={onEdit} aria-label={`Edit ${noun} ${name}`}>
        Edit
      </Button>
      <Button size="sm" variant="ghost" onClick={onDelete} aria-label={`Delete ${noun} ${name}`}>
        Delete
      </Button>
    </span>
  )
}

/** A delete mutation by id (the fleet's data hooks). */
interface Deletion {
  isPending: boolean
  error: unknown
  reset(): void
  mutate(id: string, options: { onSuccess: () => void }): void
}

export function ConfirmDeletion({
  noun,
  record,
  deletion,
  deletedMessage,
  onDone,
  children,
}: {
  noun: string
  record: { id: string; name: string }
  deletion: Deletion
  /** The toast once deleted; "<name> deleted" unless given. */
  deletedMessage?: string
  /** Closed: deleted, or cancelled. */
  onDone: () => void
  /** What deleting means, and what to do instead when the record is in use. */
  children: ReactNode
}) {
  const toast = useToast()
  return (
    <ConfirmDialog
      title={`Delete ${noun} ${record.name}?`}
      confirmLabel={`Delete ${noun}`}
      pending={deletion.isPending}
      error={deletion.error}
      onClose={() => {
        deletion.reset()
        onDone()
      }}
      onConfirm={() =>
        deletion.mutate(record.id, {
          onSuccess: () => {
            toast.success(deletedMessage ?? `${record.name} deleted`)
            onDone()
          },
        })
      }
    >
      <p>{children}</p>
    </ConfirmDialog>
  )
}
