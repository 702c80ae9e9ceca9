// The dialog shown while the record named in the URL (`?customer=`, `?vehicle=` …) loads, or when it
// cannot be (another organisation's id is "not found"), before its edit dialog takes over.
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
