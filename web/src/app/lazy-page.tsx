// Route-level code splitting: each page is its own script, fetched when its route is first shown, so
// the sign-in page and the phone's My day load only what they draw (issue 33 §2). The shells wrap
// their <Outlet /> in <PageSuspense>: while a page's script arrives, the shell stays and the page's
// place says it is loading (a navigation keeps the old page until then: React Router navigates in a
// transition).
import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode, Suspense } from 'react'
import { LoadingState } from '../ui/states'

/** A component exported by `name` from a module loaded on first render (a page, or the board's map). */
// biome-ignore lint/suspicious/noExplicitAny: any component, its props kept (React.lazy's own bound)
export function lazyPage<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }))
}

export function PageSuspense({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LoadingState label="Loading page…" />}>{children}</Suspense>
}
