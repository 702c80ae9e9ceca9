// "Download CSV" on a list: what its filters show, as the server streams it (a download, not a page).
import { API_BASE } from '../api/client'

/** `path` under the admin API (e.g. `/jobs/export.csv`), `query` the list's filters (empty ones left out). */
export function DownloadCsv({
  path,
  query,
}: {
  path: string
  query: Record<string, string | null | undefined>
}) {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value)
  const search = params.toString()
  return (
    <a className="btn" href={`${API_BASE}${path}${search ? `?${search}` : ''}`} download>
      Download CSV
    </a>
  )
}
