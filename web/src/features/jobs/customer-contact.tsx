// The job's customer as whoever rings or visits needs them: name (to the customer), address, a phone
// number one tap away (tel:), the email (mailto:) and the notes. Read from the customer itself, so an
// edit there shows here at once. Text nodes only: the notes are what users typed.
import { Link } from 'react-router'
import { displayPhone } from '../../lib/phone'
import { useCustomer } from '../customers/queries'

export function CustomerContact({
  customer,
  withAddress = true,
}: {
  customer: { id: string; name: string }
  /** False where the address is shown beside it already (the board's job panel). */
  withAddress?: boolean
}) {
  const { data } = useCustomer(customer.id)
  const full = data?.customer
  return (
    <span className="stack" style={{ gap: 2 }}>
      <Link to={`/customers?customer=${customer.id}`}>{customer.name}</Link>
      {withAddress && full?.address && <span className="muted">{full.address}</span>}
      {(full?.phone || full?.email) && (
        <span className="row" style={{ gap: 'var(--space-3)', flexWrap: 'wrap' }}>
          {full.phone && <a href={`tel:${full.phone}`}>Call {displayPhone(full.phone)}</a>}
          {full.email && <a href={`mailto:${full.email}`}>{full.email}</a>}
        </span>
      )}
      {full?.notes && (
        <span className="customer-notes" style={{ whiteSpace: 'pre-line' }}>
          <span className="muted">Notes: </span>
          {full.notes}
        </span>
      )}
    </span>
  )
}
