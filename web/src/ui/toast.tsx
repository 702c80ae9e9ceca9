// Short confirmations ("API key revoked"), warnings and failures of background actions, announced to
// screen readers through a polite live region. useToast() anywhere under <ToastProvider>. A toast
// may carry one action (the board's Undo) and stay up longer than the usual five seconds.
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react'
import { Button } from './button'

type Tone = 'success' | 'warning' | 'error'

export interface ToastAction {
  label: string
  onClick: () => void
}

export interface ToastOptions {
  action?: ToastAction
  /** How long it stays up; 5 s by default (10 s for errors and warnings). */
  durationMs?: number
}

interface Toast {
  id: number
  tone: Tone
  message: string
  action?: ToastAction | undefined
}

export interface ToastApi {
  /** Each returns the toast's id, for dismissing it early. */
  success(message: string, options?: ToastOptions): number
  warning(message: string, options?: ToastOptions): number
  error(message: string, options?: ToastOptions): number
  dismiss(id: number): void
}

const ToastContext = createContext<ToastApi | null>(null)
const VISIBLE_MS = 5000

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const next = useRef(1)
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), [])
  const show = useCallback(
    (tone: Tone, message: string, options: ToastOptions = {}) => {
      const id = next.current++
      setToasts((all) => [...all.slice(-3), { id, tone, message, action: options.action }])
      setTimeout(() => dismiss(id), options.durationMs ?? (tone === 'success' ? VISIBLE_MS : VISIBLE_MS * 2))
      return id
    },
    [dismiss],
  )
  const api = useMemo<ToastApi>(
    () => ({
      success: (m, o) => show('success', m, o),
      warning: (m, o) => show('warning', m, o),
      error: (m, o) => show('error', m, o),
      dismiss,
    }),
    [show, dismiss],
  )
  return (
    <ToastContext.Provider value={api}>
      {children}
      <section className="toasts" aria-live="polite" aria-label="Notifications">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={toast.tone === 'success' ? 'toast' : `toast toast-${toast.tone}`}
            role="status"
          >
            <span>{toast.message}</span>
            <span className="toast-actions">
              {toast.action && (
                <Button
                  size="sm"
                  className="toast-action"
                  onClick={() => {
                    dismiss(toast.id)
                    toast.action?.onClick()
                  }}
                >
                  {toast.action.label}
                </Button>
              )}
              <Button
                variant="ghost"
                size="sm"
                aria-label="Dismiss notification"
                onClick={() => dismiss(toast.id)}
              >
                ✕
              </Button>
            </span>
          </div>
        ))}
      </section>
    </ToastContext.Provider>
  )
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext)
  if (!api) throw new Error('useToast outside <ToastProvider>')
  return api
}
