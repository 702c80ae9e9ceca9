// Create or edit a job: what (title, description), for whom and where (customer, depot, the
// address and coordinates when not the customer's), when (the window, must be kept or preferred,
// in the depot's time zone), how long and how urgent, and what it needs (tags, demands per
// capacity dimension).
import { useState } from 'react'
import { useDepots } from '../../app/time-zone'
import { minutesText, numberProblems, parseNumber, text } from '../../lib/form-values'
import { Banner } from '../../ui/banner'
import { serverErrors } from '../../ui/form'
import { FormDialog } from '../../ui/form-dialog'
import { SelectField, TextAreaField, TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
import { AddressLookup } from '../customers/address-lookup'
import { useCustomer } from '../customers/queries'
import { type Amounts, CapacityInputs, readAmounts, TagChoices } from '../fleet/tag-choices'
import { CustomerSelect } from './customer-select'
import { PRIORITIES, type TimeWindowType, WINDOW_TYPES } from './job-labels'
import { fromZonedInput, toZonedInput, useJobTimeZone } from './job-time'
import { type JobBody, type JobDetail, JobSaveError, useSaveJob } from './queries'

const ADDRESS_HINT =
  'Where the job is, when not at the customer’s address. Leave blank to use the customer’s.'

const FIELDS = [
  'title',
  'description',
  'customerId',
  'locationId',
  'address',
  'jobLatitude',
  'jobLongitude',
  'priority',
  'serviceDuration',
  'timeWindowType',
  'earliestStart',
  'latestEnd',
  'dueBy',
]

export function JobDialog({
  job,
  onClose,
  onSaved,
}: {
  job?: JobDetail
  onClose: () => void
  onSaved: (job: JobDetail) => void
}) {
  const save = useSaveJob()
  const depots = useDepots()
  const [savedId, setSavedId] = useState(job?.id)
  // The job is saved first, then its tags and demands: a failure names the step it stopped at.
  const failure = save.error instanceof JobSaveError ? save.error : null
  const initialZone = useJobTimeZone(job?.locationId ?? '')
  const form = useFormState(
    () => ({
      title: job?.title ?? '',
      description: job?.description ?? '',
      customerId: job?.customerId ?? '',
      locationId: job?.locationId ?? '',
      address: job?.address ?? '',
      jobLatitude: text(job?.jobLatitude),
      jobLongitude: text(job?.jobLongitude),
      earliestStart: toZonedInput(job?.earliestStart, initialZone),
      latestEnd: toZonedInput(job?.latestEnd, initialZone),
      dueBy: job?.dueBy ?? '',
      timeWindowType: job?.timeWindowType ?? ('SOFT' as TimeWindowType),
      serviceDuration: job ? minutesText(job.serviceDuration) : '',
      priority: job?.priority ?? ('NORMAL' as JobDetail['priority']),
      tagIds: job?.tags.map((t) => t.tag.id) ?? [],
      demands: Object.fromEntries(
        job?.demands.map((d) => [d.capacityDimension.id, String(d.requiredValue)]) ?? [],
      ) as Amounts,
    }),
    {
      fields: FIELDS,
      submission: { error: failure?.step === 'job' ? failure.cause : null, isPending: save.isPending },
    },
  )
  const { values, setField } = form
  // The customer's address is where the job is when it has none of its own: the field shows it.
  const chosen = useCustomer(values.customerId || undefined)
  const customerAddress =
    chosen.data?.customer.address ??
    (job?.customer?.id === values.customerId ? job.customer.address : undefined)
  const zone = useJobTimeZone(values.locationId)
  const extraErrors = serverErrors(failure && failure.step !== 'job' ? failure.cause : null, [
    'tagIds',
    'demands',
  ])

  const submit = () => {
    const numbers = {
      jobLatitude: parseNumber(values.jobLatitude),
      jobLongitude: parseNumber(values.jobLongitude),
      serviceDuration: parseNumber(values.serviceDuration),
    }
    const amounts = readAmounts(values.demands, 'requiredValue')
    const problems = {
      ...numberProblems(numbers),
      ...(amounts.invalid ? { demands: 'must be numbers' } : {}),
    }
    if (!form.check(problems)) return
    const address = values.address.trim()
    const body: JobBody = {
      title: values.title.trim(),
      description: values.description.trim() || null,
      customerId: values.customerId || null,
      locationId: values.locationId || null,
      // Blank: at the customer's address — a new job sends nothing, an edited one clears its own.
      ...(address ? { address } : savedId ? { address: null } : {}),
      jobLatitude: numbers.jobLatitude,
      jobLongitude: numbers.jobLongitude,
      priority: values.priority,
      timeWindowType: values.timeWindowType,
      earliestStart: fromZonedInput(values.earliestStart, zone),
      latestEnd: fromZonedInput(values.latestEnd, zone),
      // Blank: no date of its own (an edited job's is cleared).
      dueBy: values.dueBy || null,
      // Empty: a new job takes its customer's default; an edited one keeps what it has.
      ...(numbers.serviceDuration === null
        ? {}
        : { serviceDuration: Math.round(numbers.serviceDuration * 60) }),
    }
    save.mutate(
      { ...(savedId ? { id: savedId } : {}), job: body, tagIds: values.tagIds, demands: amounts.list },
      {
        onSuccess: onSaved,
        onError: (e) => {
          if (e instanceof JobSaveError && e.saved) setSavedId(e.saved.id)
        },
      },
    )
  }

  return (
    <FormDialog
      title={job ? `Edit ${job.title}` : 'Create job'}
      description={`Times are in ${zone}${values.locationId ? ', the depot’s time zone' : ''}.`}
      wide
      onClose={onClose}
      onSubmit={submit}
      submitLabel={job ? 'Save job' : 'Create job'}
      submitting={form.submitting}
      formError={form.formError ?? extraErrors.form}
      notice={
        failure &&
        failure.step !== 'job' && (
          <Banner tone="warning">
            The job was saved, but not its {failure.step}. Correct them and save again.
          </Banner>
        )
      }
    >
      <div className="form-grid">
        <div className="span-2">
          <TextField form={form} name="title" label="Title" autoComplete="off" />
        </div>
        <div className="span-2">
          <TextAreaField form={form} name="description" label="Description" optional rows={2} />
        </div>
        <div className="span-2">
          <CustomerSelect
            value={values.customerId}
            current={job?.customer}
            onChange={(id) => setField('customerId', id)}
            error={form.error('customerId')}
          />
        </div>
        <SelectField form={form} name="locationId" label="Depot" optional>
          <option value="">No depot</option>
          {(depots.data?.locations ?? []).map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <SelectField form={form} name="priority" label="Priority">
          {PRIORITIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </SelectField>
        <div className="span-2">
          <AddressLookup
            label="Address"
            optional
            value={values.address}
            onChange={(typed) => setField('address', typed)}
            onPick={(match) => {
              setField('address', match.label)
              setField('jobLatitude', match.latitude)
              setField('jobLongitude', match.longitude)
            }}
            error={form.error('address')}
            placeholder={customerAddress || undefined}
            hint={ADDRESS_HINT}
            keptHint={ADDRESS_HINT}
            withMap={false}
          />
        </div>
        <TextField
          form={form}
          name="jobLatitude"
          label="Latitude"
          optional
          hint="The job’s own place, when not the customer’s: a picked address fills it"
          inputMode="decimal"
        />
        <TextField form={form} name="jobLongitude" label="Longitude" optional inputMode="decimal" />
        <TextField form={form} name="earliestStart" label="Earliest start" optional type="datetime-local" />
        <TextField form={form} name="latestEnd" label="Latest end" optional type="datetime-local" />
        <SelectField
          form={form}
          name="timeWindowType"
          label="Time window"
          hint={WINDOW_TYPES.find((w) => w.value === values.timeWindowType)?.hint}
        >
          {WINDOW_TYPES.map((w) => (
            <option key={w.value} value={w.value}>
              {w.label}
            </option>
          ))}
        </SelectField>
        <TextField
          form={form}
          name="dueBy"
          label="Due by"
          optional
          type="date"
          hint="The last day it should be done on: a plan over several days keeps it to days up to this one"
        />
        <TextField
          form={form}
          name="serviceDuration"
          label="Service time (minutes)"
          optional
          hint={job ? undefined : 'Empty: the customer’s default (else 15)'}
          inputMode="numeric"
        />
        <div className="span-2">
          <TagChoices
            value={values.tagIds}
            onChange={(ids) => setField('tagIds', ids)}
            error={extraErrors.fields.tagIds}
          />
        </div>
        <div className="span-2">
          <CapacityInputs
            legend="Demands"
            value={values.demands}
            onChange={(amounts) => setField('demands', amounts)}
            error={form.error('demands') ?? extraErrors.fields.demands}
          />
        </div>
      </div>
    </FormDialog>
  )
}
