// The dialog shown while the record named in the URL (`?customer=`, `?vehicle=` …) loads, or when it
// cannot be (another organisation's id is "not found"), before its edit dialog takes over; and
// EditRecord, which puts the two together for every page that edits a record named in the URL.
import type { ReactNode } from 'react'
import { Button } from './button'
import { Dialog } from './dialog'
import { ErrorState, LoadingState } from './states'

export function RecordLoading({
  title,
  noun,
  error,
  onRetry,
  onClose,
}: {
  title: string
  noun: string
  error: unknown
  onRetry: () => void
  onClose: () => void
}) {
  return (
    <Dialog title={title} onClose={onClose} footer={<Button onClick={onClose}>Close</Button>}>
      {error ? (
        <ErrorState error={error} title={`This ${noun} could not be loaded`} onRetry={onRetry} />
      ) : (
        <LoadingState label={`Loading the ${noun}…`} />
      )}
    </Dialog>
  )
}

/** What EditRecord needs of a record's query hook (TanStack Query's result fits). */
export interface RecordQuery<Data> {
  data?: Data
  error: unknown
  refetch: () => unknown
}

/**
 * The record of `id`, read by `useRecord` (a query hook such as useVehicle), then its edit dialog
 * (`children` of the response); until then, and when it cannot be read, a dialog that says so.
 */
export function EditRecord<Data>({
  id,
  noun,
  useRecord,
  onClose,
  children,
}: {
  id: string
  /** What the record is called in the dialog's title and messages ("vehicle"). */
  noun: string
  useRecord: (id: string) => RecordQuery<Data>
  onClose: () => void
  children: (data: Data) => ReactNode
}) {
  const query = useRecord(id)
  if (query.data) return children(query.data)
  return (
    <RecordLoading
      title={`Edit ${noun}`}
      noun={noun}
      error={query.error}
      onRetry={() => query.refetch()}
      onClose={onClose}
    />
  )
}
