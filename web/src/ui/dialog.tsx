// Modal dialogs and side sheets on the native <dialog> element: the browser keeps focus inside,
// Escape closes, and focus returns to the opener. Render them only while open (`{open && <Dialog…>}`)
// or pass `open`; either way `onClose` is how they ask to close.
import { type FormEvent, type ReactNode, useEffect, useId, useLayoutEffect, useRef } from 'react'
import { Button } from './button'

interface BaseProps {
  title: string
  description?: ReactNode
  onClose: () => void
  children?: ReactNode
  open?: boolean
}

function useModal(open: boolean, onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null)
  // A layout effect: its clean-up runs while the dialog is still in the page (a passive effect's runs
  // after React removed it, and closing a detached dialog returns focus nowhere).
  useLayoutEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
    // Closed before it leaves the page, so the browser returns focus to what opened it.
    return () => {
      if (dialog.open) dialog.close()
    }
  }, [open])
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const cancel = (event: Event) => {
      event.preventDefault()
      onClose()
    }
    dialog.addEventListener('cancel', cancel)
    return () => dialog.removeEventListener('cancel', cancel)
  }, [onClose])
  return ref
}

export interface DialogProps extends BaseProps {
  /** Footer buttons; with onSubmit the body is a form and Enter submits it. */
  footer?: ReactNode
  onSubmit?: () => void
  wide?: boolean
}

export function Dialog({
  title,
  description,
  onClose,
  children,
  footer,
  onSubmit,
  wide,
  open = true,
}: DialogProps) {
  const ref = useModal(open, onClose)
  const titleId = useId()
  const descriptionId = useId()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit?.()
  }
  const content = (
    <>
      <header className="dialog-header">
        <div>
          <h2 id={titleId}>{title}</h2>
          {description && (
            <div id={descriptionId} className="dialog-description">
              {description}
            </div>
          )}
        </div>
        <Button variant="ghost" size="sm" onClick={onClose} aria-label="Close">
          ✕
        </Button>
      </header>
      <div className="dialog-body">{children}</div>
      {footer && <footer className="dialog-footer">{footer}</footer>}
    </>
  )
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
    >
      {onSubmit ? (
        <form className="dialog-form" onSubmit={submit} noValidate>
          {content}
        </form>
      ) : (
        <div className="dialog-form">{content}</div>
      )}
    </dialog>
  )
}

/** A panel docked to the right: details of one row (an execution, a job) over its list. */
export function Sheet({ title, description, onClose, children, open = true }: BaseProps) {
  const ref = useModal(open, onClose)
  const titleId = useId()
  return (
    <dialog ref={ref} className="sheet" aria-labelledby={titleId}>
      <div className="sheet-inner">
        <header className="dialog-header">
          <div>
            <h2 id={titleId}>{title}</h2>
            {description && <div className="dialog-description">{description}</div>}
          </div>
          <Button variant="ghost" size="sm" onClick={onClose} aria-label="Close">
            ✕
          </Button>
        </header>
        <div className="sheet-body">{children}</div>
      </div>
    </dialog>
  )
}
