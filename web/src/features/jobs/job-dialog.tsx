// Create or edit a job: what (title, description), for whom and where (customer, depot, the
// coordinates when not the customer's), when (the window, hard or soft, in the depot's time zone),
// how long and how urgent, and what it needs (tags, demands per capacity dimension).
import { useState } from 'react'
import { useDepots } from '../../app/time-zone'
import { minutesText, numberProblems, parseNumber, text } from '../../lib/form-values'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field, FormError, serverErrors } from '../../ui/form'
import { type Amounts, CapacityInputs, readAmounts, TagChoices } from '../fleet/tag-choices'
import { CustomerSelect } from './customer-select'
import { PRIORITIES, type TimeWindowType, WINDOW_TYPES } from './job-labels'
import { fromZonedInput, toZonedInput, useJobTimeZone } from './job-time'
import { type JobBody, type JobDetail, JobSaveError, useSaveJob } from './queries'

const FIELDS = [
  'title',
  'description',
  'customerId',
  'locationId',
  'jobLatitude',
  'jobLongitude',
  'priority',
  'serviceDuration',
  'timeWindowType',
  'earliestStart',
  'latestEnd',
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
  const [title, setTitle] = useState(job?.title ?? '')
  const [description, setDescription] = useState(job?.description ?? '')
  const [customerId, setCustomerId] = useState(job?.customerId ?? '')
  const [locationId, setLocationId] = useState(job?.locationId ?? '')
  const zone = useJobTimeZone(locationId)
  const [latitude, setLatitude] = useState(text(job?.jobLatitude))
  const [longitude, setLongitude] = useState(text(job?.jobLongitude))
  const [earliest, setEarliest] = useState(toZonedInput(job?.earliestStart, zone))
  const [latest, setLatest] = useState(toZonedInput(job?.latestEnd, zone))
  const [windowType, setWindowType] = useState<TimeWindowType>(job?.timeWindowType ?? 'SOFT')
  const [minutes, setMinutes] = useState(job ? minutesText(job.serviceDuration) : '')
  const [priority, setPriority] = useState<JobBody['priority']>(job?.priority ?? 'NORMAL')
  const [tagIds, setTagIds] = useState<string[]>(job?.tags.map((t) => t.tag.id) ?? [])
  const [demands, setDemands] = useState<Amounts>(
    Object.fromEntries(job?.demands.map((d) => [d.capacityDimension.id, String(d.requiredValue)]) ?? []),
  )
  const [local, setLocal] = useState<Record<string, string>>({})
  const failure = save.error instanceof JobSaveError ? save.error : null
  const errors = serverErrors(failure?.step === 'job' ? failure.cause : null, FIELDS)
  const extraErrors = serverErrors(failure && failure.step !== 'job' ? failure.cause : null, [
    'tagIds',
    'demands',
  ])
  const error = (field: string) => local[field] ?? errors.fields[field]

  const submit = () => {
    const numbers = {
      jobLatitude: parseNumber(latitude),
      jobLongitude: parseNumber(longitude),
      serviceDuration: parseNumber(minutes),
    }
    const amounts = readAmounts(demands, 'requiredValue')
    const problems = {
      ...numberProblems(numbers),
      ...(amounts.invalid ? { demands: 'must be numbers' } : {}),
    }
    setLocal(problems)
    if (Object.keys(problems).length > 0) return
    const body: JobBody = {
      title: title.trim(),
      description: description.trim() || null,
      customerId: customerId || null,
      locationId: locationId || null,
      jobLatitude: numbers.jobLatitude,
      jobLongitude: numbers.jobLongitude,
      priority,
      timeWindowType: windowType,
      earliestStart: fromZonedInput(earliest, zone),
      latestEnd: fromZonedInput(latest, zone),
      // Empty: a new job takes its customer's default; an edited one keeps what it has.
      ...(numbers.serviceDuration === null
        ? {}
        : { serviceDuration: Math.round(numbers.serviceDuration * 60) }),
    }
    save.mutate(
      { ...(savedId ? { id: savedId } : {}), job: body, tagIds, demands: amounts.list },
      {
        onSuccess: onSaved,
        onError: (e) => {
          if (e instanceof JobSaveError && e.saved) setSavedId(e.saved.id)
        },
      },
    )
  }

  return (
    <Dialog
      title={job ? `Edit ${job.title}` : 'Create job'}
      description={`Times are in ${zone}${locationId ? ', the depot’s time zone' : ''}.`}
      wide
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={save.isPending}>
            {job ? 'Save job' : 'Create job'}
          </Button>
        </>
      }
    >
      {failure && failure.step !== 'job' && (
        <Banner tone="warning">
          The job was saved, but not its {failure.step}. Correct them and save again.
        </Banner>
      )}
      <FormError message={errors.form ?? extraErrors.form} />
      <div className="form-grid">
        <div className="span-2">
          <Field label="Title" error={error('title')}>
            {(control) => (
              <input
                {...control}
                className="input"
                autoComplete="off"
                value={title}
                onChange={(e) => setTitle(e.target.value)}
              />
            )}
          </Field>
        </div>
        <div className="span-2">
          <Field label="Description" optional error={error('description')}>
            {(control) => (
              <textarea
                {...control}
                className="textarea"
                rows={2}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
              />
            )}
          </Field>
        </div>
        <div className="span-2">
          <CustomerSelect
            value={customerId}
            current={job?.customer}
            onChange={(id) => setCustomerId(id)}
            error={error('customerId')}
          />
        </div>
        <Field label="Depot" optional error={error('locationId')}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={locationId}
              onChange={(e) => setLocationId(e.target.value)}
            >
              <option value="">No depot</option>
              {(depots.data?.locations ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Priority" error={error('priority')}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={priority}
              onChange={(e) => setPriority(e.target.value as JobBody['priority'])}
            >
              {PRIORITIES.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Latitude"
          optional
          hint="Where the job is, when not at the customer’s address"
          error={error('jobLatitude')}
        >
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
        <Field label="Longitude" optional error={error('jobLongitude')}>
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
        <Field label="Earliest start" optional error={error('earliestStart')}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="datetime-local"
              value={earliest}
              onChange={(e) => setEarliest(e.target.value)}
            />
          )}
        </Field>
        <Field label="Latest end" optional error={error('latestEnd')}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="datetime-local"
              value={latest}
              onChange={(e) => setLatest(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Time window"
          hint={WINDOW_TYPES.find((w) => w.value === windowType)?.hint}
          error={error('timeWindowType')}
        >
          {(control) => (
            <select
              {...control}
              className="select"
              value={windowType}
              onChange={(e) => setWindowType(e.target.value as TimeWindowType)}
            >
              {WINDOW_TYPES.map((w) => (
                <option key={w.value} value={w.value}>
                  {w.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Service time (minutes)"
          optional
          hint={job ? undefined : 'Empty: the customer’s default (else 15)'}
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
        <div className="span-2">
          <TagChoices value={tagIds} onChange={setTagIds} error={extraErrors.fields.tagIds} />
        </div>
        <div className="span-2">
          <CapacityInputs
            legend="Demands"
            value={demands}
            onChange={setDemands}
            error={local.demands ?? extraErrors.fields.demands}
          />
        </div>
      </div>
    </Dialog>
  )
}
