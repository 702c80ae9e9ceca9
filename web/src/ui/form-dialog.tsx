// The dialog every create/edit form uses: its fields, the server's message for the form as a whole
// over them, and Cancel beside the submit button (pending while the form is sent). After a send
// refused field by field (the form's own check or the server's 400), the first field marked invalid
// takes the focus and is scrolled into view: in a long dialog it may be below the fold.
import { type ReactNode, useEffect, useRef } from 'react'
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
  const body = useRef<HTMLDivElement>(null)
  const sent = useRef(false)
  // After every render: once a send has settled, the first invalid field (if any) is shown.
  useEffect(() => {
    if (!sent.current || submitting) return
    const first = body.current?.querySelector<HTMLElement>('[aria-invalid="true"]')
    if (!first) return
    sent.current = false
    first.focus()
    first.scrollIntoView({ block: 'center' })
  })
  return (
    <Dialog
      title={title}
      description={description}
      wide={wide}
      onClose={onClose}
      onSubmit={() => {
        sent.current = true
        onSubmit()
      }}
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
      <div ref={body} className="form-dialog-body">
        {notice}
        <FormError message={formError} />
        {children}
      </div>
    </Dialog>
  )
}
