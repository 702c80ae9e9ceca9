// A server-paged table with its loading, error and empty states built in. Pages pass the query
// (from a data hook) and the columns; rows come from the query's data, paging from its pagination.
import type { ReactNode } from 'react'
import { ErrorState } from './states'

export interface Column<Row> {
  /** Column header (also the accessible name of its cells). */
  header: ReactNode
  cell: (row: Row) => ReactNode
  align?: 'left' | 'right'
  /** Visually hidden header (an actions column, say) — still announced. */
  hiddenHeader?: boolean
  className?: string
}

export interface DataTableProps<Row> {
  /** The table's accessible name ("API keys"). */
  label: string
  columns: Column<Row>[]
  rows: Row[] | undefined
  rowKey: (row: Row) => string
  isLoading: boolean
  error: unknown
  onRetry?: () => void
  /** Shown when the (filtered) list is empty: an EmptyState. */
  empty: ReactNode
  /** Row click (e.g. open a detail sheet); the row also gets a focusable control inside for keyboards. */
  onRowClick?: (row: Row) => void
  selectedKey?: string | null
  /** Skeleton rows while loading. */
  loadingRows?: number
}

export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  isLoading,
  error,
  onRetry,
  empty,
  onRowClick,
  selectedKey,
  loadingRows = 5,
}: DataTableProps<Row>) {
  if (error && !rows) {
    return (
      <div className="table-wrap">
        <ErrorState error={error} onRetry={onRetry} />
      </div>
    )
  }
  if (!isLoading && rows && rows.length === 0) return <div className="table-wrap">{empty}</div>
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label} aria-busy={isLoading || undefined}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are static per table
                key={index}
                scope="col"
                className={column.align === 'right' ? 'align-right' : undefined}
              >
                {column.hiddenHeader ? (
                  <span className="visually-hidden">{column.header}</span>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {isLoading && !rows
            ? Array.from({ length: loadingRows }, (_, row) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <tr key={row}>
                  {columns.map((_column, cell) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
                    <td key={cell}>
                      <span className="skeleton" style={{ width: `${50 + ((row * 7 + cell * 13) % 40)}%` }} />
                    </td>
                  ))}
                </tr>
              ))
            : (rows ?? []).map((row) => {
                const key = rowKey(row)
                const classNames = [
                  onRowClick ? 'table-row-link' : '',
                  selectedKey === key ? 'table-row-selected' : '',
                ]
                return (
                  <tr
                    key={key}
                    className={classNames.filter(Boolean).join(' ') || undefined}
                    onClick={onRowClick ? () => onRowClick(row) : undefined}
                  >
                    {columns.map((column, index) => (
                      <td
                        // biome-ignore lint/suspicious/noArrayIndexKey: columns are static per table
                        key={index}
                        className={
                          [column.align === 'right' ? 'align-right' : '', column.className ?? '']
                            .filter(Boolean)
                            .join(' ') || undefined
                        }
                      >
                        {column.cell(row)}
                      </td>
                    ))}
                  </tr>
                )
              })}
        </tbody>
      </table>
    </div>
  )
}
