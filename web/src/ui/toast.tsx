// Short confirmations ("API key revoked") and failures of background actions, announced to screen
// readers through a polite live region. useToast() anywhere under <ToastProvider>.
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react'
import { Button } from './button'

interface Toast {
  id: number
  tone: 'success' | 'error'
  message: string
}

interface ToastApi {
  success(message: string): void
  error(message: string): void
}

const ToastContext = createContext<ToastApi | null>(null)
const VISIBLE_MS = 5000

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const next = useRef(1)
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), [])
  const show = useCallback(
    (tone: Toast['tone'], message: string) => {
      const id = next.current++
      setToasts((all) => [...all.slice(-3), { id, tone, message }])
      setTimeout(() => dismiss(id), tone === 'error' ? VISIBLE_MS * 2 : VISIBLE_MS)
    },
    [dismiss],
  )
  const api = useMemo<ToastApi>(
    () => ({ success: (m) => show('success', m), error: (m) => show('error', m) }),
    [show],
  )
  return (
    <ToastContext.Provider value={api}>
      {children}
      <section className="toasts" aria-live="polite" aria-label="Notifications">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={toast.tone === 'error' ? 'toast toast-error' : 'toast'}
            role="status"
          >
            <span>{toast.message}</span>
            <Button
              variant="ghost"
              size="sm"
              aria-label="Dismiss notification"
              onClick={() => dismiss(toast.id)}
            >
              ✕
            </Button>
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
