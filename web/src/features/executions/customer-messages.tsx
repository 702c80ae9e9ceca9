// The emails sent to customers ("on my way", "completed"), beside the webhook deliveries: one attempt
// each, with the outcome, newest first.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api/client'
import type { Schema } from '../../api/types'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import { type Column, DataTable } from '../../ui/data-table'
import { DateTime } from '../../ui/date-time'

type CustomerMessage = Schema<'CustomerMessage'>
const PAGE_SIZE = 10

function useCustomerMessages(page: number) {
  const query = { page, limit: PAGE_SIZE }
  return useQuery({
    queryKey: ['customer-messages', query],
    queryFn: () => unwrap(api.GET('/customer-messages', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.customerMessages.some((m) => m.status === 'PENDING') ? 2000 : false,
  })
}

const TONE = { SENT: 'green', FAILED: 'red', PENDING: 'blue' } as const
const LABEL = { SENT: 'Sent', FAILED: 'Failed', PENDING: 'Sending' } as const

export function CustomerMessages() {
  const [page, setPage] = useState(1)
  const messages = useCustomerMessages(page)
  const total = messages.data?.pagination.total ?? 0
  const columns: Column<CustomerMessage>[] = [
    { header: 'Status', cell: (m) => <Badge tone={TONE[m.status]}>{LABEL[m.status]}</Badge> },
    { header: 'Email', cell: (m) => (m.kind === 'EN_ROUTE' ? 'On the way' : 'Completed') },
    { header: 'To', cell: (m) => m.recipient },
    { header: 'Subject', cell: (m) => m.subject },
    { header: 'Error', cell: (m) => m.error ?? '' },
    { header: 'When', cell: (m) => <DateTime value={m.createdAt} /> },
  ]
  return (
    <section className="stack" aria-labelledby="customer-emails-title">
      <h2 id="customer-emails-title">Customer emails</h2>
      <DataTable
        label="Customer emails"
        columns={columns}
        rows={messages.data?.customerMessages ?? []}
        rowKey={(m) => m.id}
        isLoading={messages.isPending}
        error={messages.error}
        onRetry={() => messages.refetch()}
        empty={<p className="muted">No customer emails yet: turn them on under Organisation.</p>}
      />
      {total > PAGE_SIZE && (
        <div className="row">
          <Button size="sm" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <Button size="sm" disabled={page * PAGE_SIZE >= total} onClick={() => setPage(page + 1)}>
            Older
          </Button>
        </div>
      )}
    </section>
  )
}
