import type { components } from '../api/schema'
import { Button } from './button'

/** A page-numbered list's pagination (the change-feed lists answer page null only when read by cursor). */
type Pagination = Omit<components['schemas']['Pagination'], 'page'> & { page: number | null }

/** "1–50 of 312" with Previous / Next; the page lives in the URL (see usePageParam). */
export function Pager({
  pagination,
  onPage,
  noun = 'results',
}: {
  pagination: Pagination | undefined
  onPage: (page: number) => void
  noun?: string
}) {
  if (!pagination || pagination.total === 0) return null
  const { limit, total, totalPages } = pagination
  const page = pagination.page ?? 1
  const first = (page - 1) * limit + 1
  const last = Math.min(page * limit, total)
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`}>
      <span>{first > total ? `Page ${page} of ${totalPages}` : `${first}–${last} of ${total} ${noun}`}</span>
      <span className="row">
        <Button size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button size="sm" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </span>
    </nav>
  )
}
