// Customers: everyone the organisation visits (server-paged, searched by name or address on the
// server), added and edited in a dialog with a map pin. `?customer=ID` opens one for editing, so an
// edit can be linked; an id that is not the organisation's shows "not found".
import { useState } from 'react'
import { Link } from 'react-router'
import { formatDuration } from '../../lib/form-values'
import { displayPhone } from '../../lib/phone'
import { useListParams } from '../../lib/search-params'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import type { Column } from '../../ui/data-table'
import { DownloadCsv } from '../../ui/download-csv'
import { ListPage } from '../../ui/list-page'
import { EditRecord } from '../../ui/record-loading'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { priorityOf, windowTypeLabel } from '../jobs/job-labels'
import { CustomerDialog } from './customer-dialog'
import { type Customer, useCustomer, useCustomers } from './queries'

export function CustomersPage() {
  const params = useListParams()
  const search = params.get('q')
  const editing = params.get('customer')
  const customers = useCustomers(params.page, search)
  const toast = useToast()
  const [adding, setAdding] = useState(false)
  const close = () => params.set({ customer: undefined }, { keepPage: true })

  const columns: Column<Customer>[] = [
    {
      header: 'Customer',
      cell: (c) => (
        <span className="stack" style={{ gap: 0 }}>
          <strong>{c.name}</strong>
          <span className="muted">{c.address || 'No address'}</span>
        </span>
      ),
    },
    {
      header: 'Contact',
      cell: (c) =>
        c.email || c.phone ? (
          <span className="stack" style={{ gap: 0 }}>
            {c.email && <span>{c.email}</span>}
            {c.phone && <a href={`tel:${c.phone}`}>{displayPhone(c.phone)}</a>}
          </span>
        ) : (
          <span className="muted">None</span>
        ),
    },
    {
      header: 'Coordinates',
      cell: (c) => (
        <span className="mono">
          {Number(c.latitude).toFixed(4)}, {Number(c.longitude).toFixed(4)}
        </span>
      ),
    },
    {
      header: 'Opening hours',
      cell: (c) => (
        <span>
          {c.operationalStart}–{c.operationalEnd}{' '}
          <span className="muted">({windowTypeLabel(c.timeWindowType).toLowerCase()})</span>
        </span>
      ),
    },
    { header: 'Service time', cell: (c) => formatDuration(c.serviceDuration) },
    {
      header: 'Priority',
      cell: (c) => <Badge tone={priorityOf(c.priority).tone}>{priorityOf(c.priority).label}</Badge>,
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      className: 'cell-actions',
      cell: (c) => (
        <span className="row" style={{ justifyContent: 'flex-end', flexWrap: 'nowrap' }}>
          <Link
            className="btn btn-sm btn-ghost"
            to={`/jobs?customer=${c.id}`}
            aria-label={`Jobs of ${c.name}`}
          >
            Jobs
          </Link>
          <Button
            size="sm"
            onClick={() => params.set({ customer: c.id }, { keepPage: true })}
            aria-label={`Edit ${c.name}`}
          >
            Edit
          </Button>
        </span>
      ),
    },
  ]

  return (
    <ListPage
      title="Customers"
      description="The places your team visits, with the defaults their jobs take."
      actions={
        <>
          <DownloadCsv path="/customers/export.csv" query={{ search }} />
          <Link className="btn" to="/import?kind=customers">
            Import CSV
          </Link>
          <Button variant="primary" onClick={() => setAdding(true)}>
            Add customer
          </Button>
        </>
      }
      filters={{
        params,
        items: [{ kind: 'search', placeholder: 'Name or address' }],
        noMatches: { title: `No customer matches “${search}”`, clearLabel: 'Clear search' },
      }}
      table={{
        label: 'Customers',
        columns,
        rows: customers.data?.customers,
        rowKey: (c) => c.id,
        query: customers,
        pagination: customers.data?.pagination,
        onPage: (page) => params.set({ page }),
        noun: 'customers',
        empty: (
          <EmptyState
            icon="⌖"
            title="No customers yet"
            description="Add the homes and businesses your team visits; jobs can then be booked for them."
            action={
              <Button variant="primary" onClick={() => setAdding(true)}>
                Add customer
              </Button>
            }
          />
        ),
      }}
    >
      {adding && (
        <CustomerDialog
          onClose={() => setAdding(false)}
          onSaved={(customer) => {
            setAdding(false)
            toast.success(`${customer.name} added`)
          }}
        />
      )}
      {editing && (
        <EditRecord id={editing} noun="customer" useRecord={useCustomer} onClose={close}>
          {(data) => (
            <CustomerDialog
              customer={data.customer}
              onClose={close}
              onSaved={(customer) => {
                close()
                toast.success(`${customer.name} saved`)
              }}
            />
          )}
        </EditRecord>
      )}
    </ListPage>
  )
}
