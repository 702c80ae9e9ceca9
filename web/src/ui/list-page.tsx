// The scaffold of every list page (cal.com's pages share one too): the header with the title and
// the primary action, a row of filters, the server-paged table with its designed loading, error and
// empty states, and the pager; the page's dialogs follow. `PagedTable` is the table and pager alone,
// for a list that is one section of a page (Fleet's depots and vehicles).
import type { ReactNode } from 'react'
import { Button } from './button'
import { DataTable, type DataTableProps } from './data-table'
import { PageHeader } from './page-header'
import { Pager } from './pager'
import { EmptyState } from './states'

/** What a list needs of its data hook's query (TanStack Query's result fits). */
export interface ListQuery {
  isPending: boolean
  error: unknown
  refetch: () => unknown
}

export type PagedTableProps<Row> = Omit<DataTableProps<Row>, 'isLoading' | 'error' | 'onRetry'> & {
  query: ListQuery
  pagination: Parameters<typeof Pager>[0]['pagination']
  onPage: (page: number) => void
  /** What the pager counts ("1–20 of 312 keys"). */
  noun: string
}

export function PagedTable<Row>({ query, pagination, onPage, noun, ...table }: PagedTableProps<Row>) {
  return (
    <div>
      <DataTable {...table} isLoading={query.isPending} error={query.error} onRetry={() => query.refetch()} />
      <Pager pagination={pagination} onPage={onPage} noun={noun} />
    </div>
  )
}

export function ListPage<Row>({
  title,
  description,
  actions,
  filters,
  toolbar,
  table,
  children,
}: {
  title: string
  description: ReactNode
  /** The header's buttons, the primary one last. */
  actions: ReactNode
  /** The controls over the table (each filter's state is in the URL). */
  filters?: ReactNode
  /** A row over the table that is not a filter form (a "Hide revoked keys" switch). */
  toolbar?: ReactNode
  table: PagedTableProps<Row>
  /** The page's dialogs. */
  children?: ReactNode
}) {
  return (
    <div className="page">
      <PageHeader title={title} description={description} actions={actions} />
      {filters && <div className="filters">{filters}</div>}
      {toolbar}
      <PagedTable {...table} />
      {children}
    </div>
  )
}

/** The empty state of a filtered list: nothing matches, and the way back to everything. */
export function NoMatches({
  title,
  clearLabel = 'Clear filters',
  onClear,
}: {
  title: string
  clearLabel?: string
  onClear: () => void
}) {
  return <EmptyState title={title} action={<Button onClick={onClear}>{clearLabel}</Button>} />
}
