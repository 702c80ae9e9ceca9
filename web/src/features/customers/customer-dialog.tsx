// Create or edit a customer: name, address, where it is (a pin on the map or the numbers), and the
// defaults its jobs take (service time, priority, opening hours and how strict they are).
import { useDepots } from '../../app/time-zone'
import { minutesText, numberProblems, parseNumber, text } from '../../lib/form-values'
import { FormDialog } from '../../ui/form-dialog'
import { SelectField, TextAreaField, TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
import { PRIORITIES, WINDOW_TYPES } from '../jobs/job-labels'
import { AddressLookup } from './address-lookup'
import { LocationFields } from './location-fields'
import { type Customer, useCreateCustomer, useUpdateCustomer } from './queries'

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
  'email',
  'phone',
  'notes',
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
  const form = useFormState(
    () => ({
      name: customer?.name ?? '',
      address: customer?.address ?? '',
      latitude: text(customer?.latitude),
      longitude: text(customer?.longitude),
      // Minutes as typed; the API keeps seconds.
      serviceDuration: minutesText(customer?.serviceDuration ?? 900),
      priority: customer?.priority ?? ('NORMAL' as Customer['priority']),
      timeWindowType: customer?.timeWindowType ?? ('SOFT' as Customer['timeWindowType']),
      operationalStart: customer?.operationalStart ?? '08:00',
      operationalEnd: customer?.operationalEnd ?? '18:00',
      email: customer?.email ?? '',
      phone: customer?.phone ?? '',
      notes: customer?.notes ?? '',
    }),
    { fields: FIELDS, submission: mutation },
  )
  const { values } = form

  const landmarks = (depots.data?.locations ?? []).map((depot) => ({
    name: depot.name,
    latitude: Number(depot.latitude),
    longitude: Number(depot.longitude),
  }))

  const submit = () => {
    const lat = parseNumber(values.latitude)
    const lng = parseNumber(values.longitude)
    const duration = parseNumber(values.serviceDuration)
    // Where the customer is decides every route: an empty one is asked for here, in words that say
    // how (the API's "must be a number" told a newcomer nothing).
    const where = 'Place the pin on the map (click it), pick an address match, or type the coordinates'
    const problems = {
      ...numberProblems({ latitude: lat, longitude: lng, serviceDuration: duration }),
      ...(lat === null ? { latitude: where } : {}),
      ...(lng === null ? { longitude: where } : {}),
    }
    if (!form.check(problems)) return
    const body = {
      name: values.name.trim(),
      address: values.address.trim(),
      latitude: lat as number,
      longitude: lng as number,
      ...(duration === null ? {} : { serviceDuration: Math.round(duration * 60) }),
      priority: values.priority,
      timeWindowType: values.timeWindowType,
      operationalStart: values.operationalStart,
      operationalEnd: values.operationalEnd,
      // Empty clears: the API takes null for "none" and names a malformed value at its field.
      email: values.email.trim() || null,
      phone: values.phone.replace(/[\s()-]/g, '') || null,
      notes: values.notes.trim() || null,
    }
    const done = { onSuccess: ({ customer: saved }: { customer: Customer }) => onSaved(saved) }
    if (customer) update.mutate({ id: customer.id, ...body }, done)
    else create.mutate(body, done)
  }

  return (
    <FormDialog
      title={customer ? `Edit ${customer.name}` : 'Add customer'}
      description="Where the customer is and what their jobs default to."
      wide
      onClose={onClose}
      onSubmit={submit}
      submitLabel={customer ? 'Save customer' : 'Add customer'}
      submitting={form.submitting}
      formError={form.formError}
    >
      <div className="form-grid">
        <TextField form={form} name="name" label="Name" autoComplete="off" />
        <AddressLookup
          label="Address"
          optional
          value={values.address}
          onChange={(address) => form.setField('address', address)}
          onPick={(match) => {
            form.setField('address', match.label)
            form.setField('latitude', match.latitude)
            form.setField('longitude', match.longitude)
          }}
          error={form.error('address')}
          hint="Type 3 letters or more to pick a match: it places the pin"
        />
        <TextField
          form={form}
          name="email"
          label="Email"
          optional
          type="email"
          hint="Gets the “on my way” and “completed” emails when they are turned on"
          autoComplete="off"
        />
        <TextField
          form={form}
          name="phone"
          label="Phone"
          optional
          type="tel"
          hint="International form, e.g. +44 7700 900123"
          autoComplete="off"
        />
        <TextAreaField
          form={form}
          name="notes"
          label="Notes"
          optional
          rows={2}
          maxLength={2000}
          hint="For whoever visits: gate codes, when to call. Shown on the job and on the phone"
        />
        <LocationFields form={form} label="Customer location" landmarks={landmarks} />
        <TextField
          form={form}
          name="serviceDuration"
          label="Service time (minutes)"
          hint="Time on site a job here takes by default"
          inputMode="numeric"
        />
        <SelectField form={form} name="priority" label="Priority">
          {PRIORITIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </SelectField>
        <TextField form={form} name="operationalStart" label="Opens" type="time" />
        <TextField form={form} name="operationalEnd" label="Closes" type="time" />
        <SelectField
          form={form}
          name="timeWindowType"
          label="Opening hours are"
          hint={WINDOW_TYPES.find((w) => w.value === values.timeWindowType)?.hint}
        >
          {WINDOW_TYPES.map((w) => (
            <option key={w.value} value={w.value}>
              {w.label}
            </option>
          ))}
        </SelectField>
      </div>
    </FormDialog>
  )
}
