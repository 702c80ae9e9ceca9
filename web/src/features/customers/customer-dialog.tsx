// Create or edit a customer: name, address, where it is (a pin on the map or the numbers), and the
// defaults its jobs take (service time, priority, opening hours and how strict they are).
import { useState } from 'react'
import { useDepots } from '../../app/time-zone'
import { minutesText, numberProblems, parseNumber, text } from '../../lib/form-values'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field, FormError, serverErrors } from '../../ui/form'
import { PRIORITIES, WINDOW_TYPES } from '../jobs/job-labels'
import { PinPicker } from './pin-picker'
import { type Customer, type CustomerBody, useCreateCustomer, useUpdateCustomer } from './queries'

const FIELDS = [
  'name',
  'address',
  'latitude',
  'longitude',
  'serviceDuration',
  'priority',
  'timeWindowType',
  'operationalStart',
  'operationalEnd',
] as const

export function CustomerDialog({
  customer,
  onClose,
  onSaved,
}: {
  /** The customer to edit; none to create one. */
  customer?: Customer
  onClose: () => void
  onSaved: (customer: Customer) => void
}) {
  const create = useCreateCustomer()
  const update = useUpdateCustomer()
  const mutation = customer ? update : create
  const depots = useDepots()
  const [name, setName] = useState(customer?.name ?? '')
  const [address, setAddress] = useState(customer?.address ?? '')
  const [latitude, setLatitude] = useState(text(customer?.latitude))
  const [longitude, setLongitude] = useState(text(customer?.longitude))
  const [minutes, setMinutes] = useState(minutesText(customer?.serviceDuration ?? 900))
  const [priority, setPriority] = useState<CustomerBody['priority']>(customer?.priority ?? 'NORMAL')
  const [windowType, setWindowType] = useState<CustomerBody['timeWindowType']>(
    customer?.timeWindowType ?? 'SOFT',
  )
  const [opens, setOpens] = useState(customer?.operationalStart ?? '08:00')
  const [closes, setCloses] = useState(customer?.operationalEnd ?? '18:00')
  const [local, setLocal] = useState<Record<string, string>>({})
  const errors = serverErrors(mutation.error, FIELDS)
  const error = (field: string) => local[field] ?? errors.fields[field]

  const lat = parseNumber(latitude)
  const lng = parseNumber(longitude)
  const landmarks = (depots.data?.locations ?? []).map((depot) => ({
    name: depot.name,
    latitude: Number(depot.latitude),
    longitude: Number(depot.longitude),
  }))

  const submit = () => {
    const duration = parseNumber(minutes)
    const problems = numberProblems({ latitude: lat, longitude: lng, serviceDuration: duration })
    setLocal(problems)
    if (Object.keys(problems).length > 0) return
    // Latitude and longitude are required: an empty one goes as null and the API names it.
    const body = {
      name: name.trim(),
      address: address.trim(),
      latitude: lat as number,
      longitude: lng as number,
      ...(duration === null ? {} : { serviceDuration: Math.round(duration * 60) }),
      priority,
      timeWindowType: windowType,
      operationalStart: opens,
      operationalEnd: closes,
    }
    const done = { onSuccess: ({ customer: saved }: { customer: Customer }) => onSaved(saved) }
    if (customer) update.mutate({ id: customer.id, ...body }, done)
    else create.mutate(body, done)
  }

  return (
    <Dialog
      title={customer ? `Edit ${customer.name}` : 'Add customer'}
      description="Where the customer is and what their jobs default to."
      wide
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={mutation.isPending}>
            {customer ? 'Save customer' : 'Add customer'}
          </Button>
        </>
      }
    >
      <FormError message={errors.form} />
      <div className="form-grid">
        <Field label="Name" error={error('name')}>
          {(control) => (
            <input
              {...control}
              className="input"
              autoComplete="off"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field label="Address" optional error={error('address')}>
          {(control) => (
            <input
              {...control}
              className="input"
              autoComplete="off"
              value={address}
              onChange={(e) => setAddress(e.target.value)}
            />
          )}
        </Field>
        <div className="span-2">
          <PinPicker
            label="Customer location"
            latitude={lat !== null && !Number.isNaN(lat) ? lat : null}
            longitude={lng !== null && !Number.isNaN(lng) ? lng : null}
            landmarks={landmarks}
            onChange={(newLat, newLng) => {
              setLatitude(String(newLat))
              setLongitude(String(newLng))
            }}
          />
        </div>
        <Field label="Latitude" hint="Decimal degrees, −90 to 90" error={error('latitude')}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="decimal"
              value={latitude}
              onChange={(e) => setLatitude(e.target.value)}
            />
          )}
        </Field>
        <Field label="Longitude" hint="Decimal degrees, −180 to 180" error={error('longitude')}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="decimal"
              value={longitude}
              onChange={(e) => setLongitude(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Service time (minutes)"
          hint="Time on site a job here takes by default"
          error={error('serviceDuration')}
        >
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="numeric"
              value={minutes}
              onChange={(e) => setMinutes(e.target.value)}
            />
          )}
        </Field>
        <Field label="Priority" error={error('priority')}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={priority}
              onChange={(e) => setPriority(e.target.value as CustomerBody['priority'])}
            >
              {PRIORITIES.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Opens" error={error('operationalStart')}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="time"
              value={opens}
              onChange={(e) => setOpens(e.target.value)}
            />
          )}
        </Field>
        <Field label="Closes" error={error('operationalEnd')}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="time"
              value={closes}
              onChange={(e) => setCloses(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Opening hours are"
          hint={WINDOW_TYPES.find((w) => w.value === windowType)?.hint}
          error={error('timeWindowType')}
        >
          {(control) => (
            <select
              {...control}
              className="select"
              value={windowType}
              onChange={(e) => setWindowType(e.target.value as CustomerBody['timeWindowType'])}
            >
              {WINDOW_TYPES.map((w) => (
                <option key={w.value} value={w.value}>
                  {w.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
    </Dialog>
  )
}
