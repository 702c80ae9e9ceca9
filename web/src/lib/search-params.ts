// List state (page, filters, the open row) lives in the URL's query string, so a filtered view can
// be linked, reloaded and navigated back to. Changing a filter goes back to page 1.
import { useCallback, useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'

export interface ListParams {
  page: number
  get(name: string): string | undefined
  /**
   * Sets (or, with undefined/'', removes) parameters. A filter change goes back to page 1 unless
   * `keepPage` (opening a row's sheet, say) or the page is among the changes.
   */
  set(changes: Record<string, string | number | undefined>, options?: { keepPage?: boolean }): void
}

export function useListParams(): ListParams {
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1)
  const get = useCallback((name: string) => params.get(name) ?? undefined, [params])
  const set = useCallback(
    (changes: Record<string, string | number | undefined>, options?: { keepPage?: boolean }) => {
      setParams(
        () => {
          // From the URL as it is now, not as of the last render (the `current` React Router passes):
          // two changes made before React renders again — Clear filters, then a filter at once — both
          // apply, where the second used to undo the first.
          const next = new URLSearchParams(window.location.search)
          if (!('page' in changes) && !options?.keepPage) next.delete('page')
          for (const [name, value] of Object.entries(changes)) {
            if (value === undefined || value === '' || (name === 'page' && value === 1)) next.delete(name)
            else next.set(name, String(value))
          }
          return next
        },
        { replace: false },
      )
    },
    [setParams],
  )
  return { page, get, set }
}

/**
 * The text of a list's search box and its setter; the server searches, so the text reaches `?q=`
 * after a pause in typing. `followUrl`: when the URL's search changes otherwise (Clear filters,
 * Back), the box shows it.
 */
export function useSearchText(
  params: ListParams,
  { followUrl = false }: { followUrl?: boolean } = {},
): [string, (text: string) => void] {
  const search = params.get('q')
  const [text, setText] = useState(search ?? '')
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((search ?? '') !== text.trim()) params.set({ q: text.trim() })
    }, 300)
    return () => clearTimeout(timer)
  }, [text, search, params])
  useEffect(() => {
    if (followUrl) setText((current) => (current.trim() === (search ?? '') ? current : (search ?? '')))
  }, [search, followUrl])
  return [text, setText]
}
