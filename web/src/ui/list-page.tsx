// The scaffold of every list page (cal.com's pages share one too): the header with the title and
// the primary action, a row of filters (described as data: ui/filters.tsx), the server-paged table
// with its designed loading, error and empty states — "nothing matches" while a filter is set — and
// the pager; the page's dialogs follow. `PagedTable` is the table and pager alone,
// for a list that is one section of a page (Fleet's depots and vehicles).
import type { ReactNode } from 'react'
import type { ListParams } from '../lib/search-params'
import { Button } from './button'
import { DataTable, type DataTableProps } from './data-table'
import { FilterRow, filterState, type ListFilter } from './filters'
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

export interface ListFilters {
  params: ListParams
  items: readonly ListFilter[]
  /** The empty state while a filter is set; its button clears them all. */
  noMatches: { title: string; clearLabel?: string }
  /** "Clear filters" beside the filters while any is set. */
  clearButton?: boolean
}

/** The table's empty state: `empty` without filters, "nothing matches" with. */
function FilteredEmpty({ filters, empty }: { filters: ListFilters; empty: ReactNode }) {
  const { filtered, clear } = filterState(filters.params, filters.items)
  if (!filtered) return empty
  return (
    <NoMatches title={filters.noMatches.title} clearLabel={filters.noMatches.clearLabel} onClear={clear} />
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
  /** The filters over the table, their values in the URL. */
  filters?: ListFilters
  /** A row over the table that is not a filter form (a "Hide revoked keys" switch). */
  toolbar?: ReactNode
  table: PagedTableProps<Row>
  /** The page's dialogs. */
  children?: ReactNode
}) {
  return (
    <div className="page">
      <PageHeader title={title} description={description} actions={actions} />
      {filters && (
        <FilterRow params={filters.params} filters={filters.items} clearButton={filters.clearButton} />
      )}
      {toolbar}
      <PagedTable
        {...table}
        empty={filters ? <FilteredEmpty filters={filters} empty={table.empty} /> : table.empty}
      />
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
