// Makes /my an installable app while it is open: the manifest and theme colour in <head>, and the
// service worker (web/pwa/service-worker.js, built to /sw.js) registered with scope /my, so it never
// runs under the dashboard. A service worker needs a secure context (https, or localhost): on plain
// http from another host the app works online only.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { SESSION_QUERY_KEY } from '../../app/session'
import { myKeys } from './queries'

function headElement<K extends 'link' | 'meta'>(tag: K, attributes: Record<string, string>) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  document.head.append(element)
  return element
}

export function useInstallableApp(): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    const manifest = headElement('link', { rel: 'manifest', href: '/manifest.webmanifest' })
    const theme = headElement('meta', { name: 'theme-color', content: '#4f46e5' })
    const title = document.title
    document.title = 'My day · fieldservice'
    // Any build (tests build with NODE_ENV=test); not the dev server, which has no /sw.js.
    if (!import.meta.hot && 'serviceWorker' in navigator && window.isSecureContext) {
      navigator.serviceWorker.register('/sw.js', { scope: '/my' }).catch(() => {
        // Not installable here (a private window, storage refused): the app works online only.
      })
    }
    // A worker that just took control has seen none of what the page loaded before it: load the
    // session and the day again through it, so they are on the phone for the next dead zone.
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY })
      void queryClient.invalidateQueries({ queryKey: myKeys.all })
    }
    navigator.serviceWorker?.addEventListener('controllerchange', refresh)
    return () => {
      navigator.serviceWorker?.removeEventListener('controllerchange', refresh)
      manifest.remove()
      theme.remove()
      document.title = title
    }
  }, [queryClient])
}
