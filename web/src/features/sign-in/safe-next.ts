// Where signing in returns to: `?next=` is in a link anyone can write, so only a path of this app is
// followed. It is resolved as the browser resolves a link — a backslash is a slash, tabs and newlines
// are dropped — so `/\evil.example` and `/<tab>/evil.example` are seen as the other host they are
// (React Router refuses to navigate there, and its refusal left a signed-in user on an error page).

/** `next` as `pathname + search + hash` when it is a path of `origin`; `/` otherwise. */
export function safeNext(next: string | null, origin: string): string {
  if (!next?.startsWith('/')) return '/'
  let url: URL
  let path: string
  try {
    url = new URL(next, origin)
    path = decodeURIComponent(url.pathname)
  } catch {
    return '/'
  }
  if (url.origin !== origin) return '/'
  // `/%2F/host` or `/%5Chost` is this origin now, and another host once decoded and followed again.
  if (/^\/[/\\]/.test(path)) return '/'
  return `${url.pathname}${url.search}${url.hash}`
}
