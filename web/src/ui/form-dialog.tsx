// The dialog every create/edit form uses: its fields, the server's message for the form as a whole
// over them, and Cancel beside the submit button (pending while the form is sent).
import type { ReactNode } from 'react'
import { Button } from './button'
import { Dialog } from './dialog'
import { FormError } from './form'

export function FormDialog({
  title,
  description,
  wide,
  onClose,
  onSubmit,
  submitLabel,
  submitting,
  submitDisabled,
  formError,
  notice,
  otherAction,
  children,
}: {
  title: string
  description?: ReactNode
  wide?: boolean
  onClose: () => void
  onSubmit: () => void
  submitLabel: string
  submitting: boolean
  /** Nothing to send yet (the role chosen is the one the member has). */
  submitDisabled?: boolean
  formError: string | null
  /** Shown over the form's error (a warning about what was saved). */
  notice?: ReactNode
  /** A button before Cancel (Delete shift). */
  otherAction?: ReactNode
  children: ReactNode
}) {
  return (
    <Dialog
      title={title}
      description={description}
      wide={wide}
      onClose={onClose}
      onSubmit={onSubmit}
      footer={
        <>
          {otherAction}
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={submitting} disabled={submitDisabled}>
            {submitLabel}
          </Button>
        </>
      }
    >
      {notice}
      <FormError message={formError} />
      {children}
    </Dialog>
  )
}
