// Create a series (from nothing, or "Repeat…" on a job: pre-filled from it) or change one: what each
// visit is (the job template: title, description, customer, depot, priority, service time, tags,
// demands; a repeated job's own address and coordinates ride along), and when (rule-editor.tsx).
// A repeated job stays as it is, outside the series: the series starts with the rule's next date
// after it, and the dialog says which. Changing a series asks whether the jobs already made and
// not yet assigned change too (applyTo FUTURE_JOBS) or only the dates not made into jobs yet.
import { useState } from 'react'
import { ApiError } from '../../api/errors'
import { useDepots } from '../../app/time-zone'
import { minutesText, parseNumber } from '../../lib/form-values'
import { Banner } from '../../ui/banner'
import { Field } from '../../ui/form'
import { FormDialog } from '../../ui/form-dialog'
import { RadioChoices } from '../../ui/form-fields'
import { type Amounts, CapacityInputs, readAmounts, TagChoices } from '../fleet/tag-choices'
import { CustomerSelect } from '../jobs/customer-select'
import { PRIORITIES } from '../jobs/job-labels'
import { toZonedInput, useJobTimeZone } from '../jobs/job-time'
import type { JobDetail } from '../jobs/queries'
import {
  type SeriesDetail,
  type SeriesTemplate,
  type UpdateSeriesBody,
  useCreateSeries,
  useSeriesJobs,
  useUpdateSeries,
} from './queries'
import {
  addDays,
  defaultRule,
  fromRRule,
  nextDates,
  type RuleModel,
  ruleProblems,
  shortDate,
  todayIn,
  toRRule,
} from './rule'
import { RuleEditor, type WindowChoice, windowOf, windowProblems } from './rule-editor'
import './series.css'

type Priority = NonNullable<SeriesTemplate['priority']>

interface TemplateValues {
  title: string
  description: string
  customerId: string
  locationId: string
  priority: Priority
  serviceDuration: string
  tagIds: string[]
  demands: Amounts
}

/** What the dialog starts from: a job to repeat, a series to change, or nothing. */
export type SeriesDialogSource = { job: JobDetail } | { series: SeriesDetail } | Record<string, never>

/** The job's window as a series window: its local times when it starts and ends on one day. */
function windowFromJob(job: JobDetail, timeZone: string): WindowChoice {
  const start = toZonedInput(job.earliestStart, timeZone)
  const end = toZonedInput(job.latestEnd, timeZone)
  const sameDay = start && end && start.slice(0, 10) === end.slice(0, 10) && end > start
  return sameDay
    ? { anyTime: false, startTime: start.slice(11, 16), endTime: end.slice(11, 16), type: job.timeWindowType }
    : { anyTime: true, startTime: '09:00', endTime: '12:00', type: job.timeWindowType }
}

/** Where a 400's path points in this dialog ('/body/job/title' → 'title', '/body/rrule' → 'rule'). */
function fieldOfPath(path: string): string | null {
  const job = /^\/body\/job\/([^/]+)/.exec(path)
  if (job?.[1]) return job[1]
  if (path.startsWith('/body/rrule')) return 'rule'
  if (path.startsWith('/body/startDate')) return 'startDate'
  if (path.startsWith('/body/window')) return 'windowTimes'
  return null
}

const SHOWN = ['title', 'description', 'customerId', 'locationId', 'priority', 'serviceDuration', 'tagIds']

export function SeriesDialog({
  source,
  onClose,
  onSaved,
}: {
  source: SeriesDialogSource
  onClose: () => void
  onSaved: (series: SeriesDetail) => void
}) {
  const job = 'job' in source ? source.job : undefined
  const series = 'series' in source ? source.series : undefined
  const depots = useDepots()
  const create = useCreateSeries()
  const update = useUpdateSeries()
  const mutation = series ? update : create
  const jobZone = useJobTimeZone(job?.locationId ?? series?.job.locationId ?? '')
  const template = series?.job
  const [values, setValues] = useState<TemplateValues>(() => ({
    title: job?.title ?? template?.title ?? '',
    description: job?.description ?? template?.description ?? '',
    customerId: job?.customerId ?? template?.customerId ?? '',
    locationId: job?.locationId ?? template?.locationId ?? '',
    priority: job?.priority ?? template?.priority ?? 'NORMAL',
    serviceDuration: minutesText(job?.serviceDuration ?? template?.serviceDuration),
    tagIds: job?.tags.map((t) => t.tag.id) ?? template?.tagIds ?? [],
    demands: Object.fromEntries(
      job
        ? job.demands.map((d) => [d.capacityDimension.id, String(d.requiredValue)])
        : (template?.demands ?? []).map((d) => [d.capacityDimensionId, String(d.requiredValue)]),
    ) as Amounts,
  }))
  const zone = useJobTimeZone(values.locationId)
  const today = todayIn(zone)
  // A repeated job's date: the rule counts from it, and the series starts after it.
  const jobDate = job
    ? toZonedInput(job.earliestStart ?? job.scheduledStart, jobZone).slice(0, 10) || today
    : null
  const initialStart = series?.startDate ?? jobDate ?? today
  const storedRule = series ? fromRRule(series.rrule, series.startDate) : null
  const [rule, setRule] = useState<RuleModel>(() => storedRule ?? defaultRule(initialStart))
  // Whether the rule or start date changed (an edit then sends them), and whether the days did
  // (until then they follow the start date: its weekday, its day of the month).
  const [ruleTouched, setRuleTouched] = useState(false)
  const [daysChosen, setDaysChosen] = useState(storedRule !== null)
  const [startDate, setStartDate] = useState(initialStart)
  const [window, setWindow] = useState<WindowChoice>(() =>
    job
      ? windowFromJob(job, jobZone)
      : series?.window
        ? { anyTime: false, ...series.window }
        : { anyTime: true, startTime: '09:00', endTime: '12:00', type: 'HARD' },
  )
  const [applyTo, setApplyTo] = useState<'FUTURE_OCCURRENCES' | 'FUTURE_JOBS'>('FUTURE_OCCURRENCES')
  const [problems, setProblems] = useState<Record<string, string>>({})
  const madeJobs = useSeriesJobs(series?.id ?? '', 1, 100, Boolean(series))
  const openJobs = (madeJobs.data?.jobs ?? []).filter(
    (j) => j.status === 'CREATED' && j.occurrenceDate >= today,
  )

  const set = <K extends keyof TemplateValues>(field: K, value: TemplateValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }))
  const editRule = (next: RuleModel) => {
    setRuleTouched(true)
    const days = ['weekdays', 'monthlyBy', 'monthDay', 'ordinal', 'ordinalWeekday', 'month'] as const
    if (days.some((field) => next[field] !== rule[field])) setDaysChosen(true)
    setRule(next)
  }
  const editStart = (date: string) => {
    setRuleTouched(true)
    setStartDate(date)
    if (!daysChosen && /^\d{4}-\d{2}-\d{2}$/.test(date)) {
      const { frequency, interval, ends, until, count } = rule
      setRule({ ...defaultRule(date), frequency, interval, ends, until, count })
    }
  }

  // The series' dates from today (a repeated job: after its date), and its end when one is set.
  const previewFrom = jobDate && addDays(jobDate, 1) > today ? addDays(jobDate, 1) : today
  const keepsStoredRule = series !== undefined && storedRule === null && !ruleTouched
  const preview = keepsStoredRule
    ? series.nextOccurrences.map((o) => o.movedTo ?? o.date).slice(0, 4)
    : nextDates(rule, startDate, previewFrom, 4, series?.endDate ?? null)
  // A repeated job's series starts on the rule's first date after the job (the job is not in it).
  const firstAfterJob = jobDate ? (nextDates(rule, startDate, addDays(startDate, 1), 1)[0] ?? null) : null

  const server = serverProblems(mutation.error)
  const error = (field: string) => problems[field] ?? server.fields[field]

  const submit = () => {
    const duration = parseNumber(values.serviceDuration)
    const amounts = readAmounts(values.demands, 'requiredValue')
    const found: Record<string, string> = {
      ...(keepsStoredRule ? {} : ruleProblems(rule, startDate)),
      ...windowProblems(window),
    }
    if (!values.title.trim()) found.title = 'Title: give the visits a title'
    if (!startDate) found.startDate = 'Start date: choose the first day the rule counts from'
    if (duration !== null && !(duration > 0)) found.serviceDuration = 'Service time: a number of minutes'
    if (Number.isNaN(duration)) found.serviceDuration = 'Service time: a number of minutes'
    if (amounts.invalid) found.demands = 'Demands: each amount must be a number'
    if (job && !found.rule && Object.keys(found).length === 0 && !firstAfterJob) {
      found.rule = 'The rule has no date after this job within ten years'
    }
    setProblems(found)
    if (Object.keys(found).length > 0) return
    const fields: SeriesTemplate = {
      title: values.title.trim(),
      description: values.description.trim() || null,
      customerId: values.customerId || null,
      locationId: values.locationId || null,
      priority: values.priority,
      ...(duration === null ? {} : { serviceDuration: Math.round(duration * 60) }),
      tagIds: values.tagIds,
      demands: amounts.list,
    }
    const windowBody = windowOf(window)
    if (series) {
      const body: UpdateSeriesBody = {
        job: fields,
        window: windowBody,
        ...(keepsStoredRule ? {} : { rrule: toRRule(rule), startDate }),
        applyTo,
      }
      update.mutate({ id: series.id, body }, { onSuccess: (data) => onSaved(data.series) })
      return
    }
    // A repeated job's own place stays the visits' place.
    const place = job
      ? {
          ...(job.address ? { address: job.address } : {}),
          ...(job.jobLatitude !== null && job.jobLongitude !== null
            ? { jobLatitude: Number(job.jobLatitude), jobLongitude: Number(job.jobLongitude) }
            : {}),
        }
      : {}
    create.mutate(
      {
        job: { ...fields, ...place },
        rrule: toRRule(rule),
        startDate: firstAfterJob ?? startDate,
        window: windowBody,
      },
      { onSuccess: (data) => onSaved(data.series) },
    )
  }

  return (
    <FormDialog
      title={series ? `Edit series: ${series.job.title}` : job ? `Repeat ${job.title}` : 'Create series'}
      description={`Dates and times are in ${zone}${values.locationId ? ', the depot’s time zone' : ''}.`}
      wide
      onClose={onClose}
      onSubmit={submit}
      submitLabel={series ? 'Save series' : 'Create series'}
      submitting={mutation.isPending}
      formError={server.form}
    >
      <div className="series-dialog">
        {job && (
          <Banner tone="info">
            {firstAfterJob
              ? `This job stays as it is and is not part of the series: the series starts with the next date after it, ${shortDate(firstAfterJob)}.`
              : 'This job stays as it is and is not part of the series: the series starts with the next date after it.'}
          </Banner>
        )}
        <div className="form-grid series-form">
          <section className="stack series-what" aria-label="Each visit">
            <h3 className="series-heading">Each visit</h3>
            <Field label="Title" error={error('title')}>
              {(control) => (
                <input
                  {...control}
                  className="input"
                  autoComplete="off"
                  value={values.title}
                  onChange={(e) => set('title', e.target.value)}
                />
              )}
            </Field>
            <Field label="Description" optional error={error('description')}>
              {(control) => (
                <textarea
                  {...control}
                  className="textarea"
                  rows={2}
                  value={values.description}
                  onChange={(e) => set('description', e.target.value)}
                />
              )}
            </Field>
            <CustomerSelect
              value={values.customerId}
              current={job?.customer}
              onChange={(id) => set('customerId', id)}
              error={error('customerId')}
            />
            <Field label="Depot" optional error={error('locationId')}>
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={values.locationId}
                  onChange={(e) => set('locationId', e.target.value)}
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
            <div className="series-pair">
              <Field label="Priority" error={error('priority')}>
                {(control) => (
                  <select
                    {...control}
                    className="select"
                    value={values.priority}
                    onChange={(e) => set('priority', e.target.value as Priority)}
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
                label="Service time (minutes)"
                optional
                hint={series || job ? undefined : 'Empty: the customer’s default (else 15)'}
                error={error('serviceDuration')}
              >
                {(control) => (
                  <input
                    {...control}
                    className="input"
                    inputMode="numeric"
                    value={values.serviceDuration}
                    onChange={(e) => set('serviceDuration', e.target.value)}
                  />
                )}
              </Field>
            </div>
            <TagChoices
              value={values.tagIds}
              onChange={(ids) => set('tagIds', ids)}
              error={error('tagIds')}
            />
            <CapacityInputs
              legend="Demands"
              value={values.demands}
              onChange={(amounts) => set('demands', amounts)}
              error={error('demands')}
            />
          </section>
          <section className="stack series-when" aria-label="When">
            <h3 className="series-heading">When</h3>
            {keepsStoredRule && (
              <Banner tone="info">
                This series’ rule ({series.rrule}) was set through the API and cannot be shown here. It is
                kept unless you change the repeat settings below.
              </Banner>
            )}
            <RuleEditor
              rule={rule}
              onRule={editRule}
              startDate={startDate}
              onStartDate={editStart}
              startHint={
                job
                  ? 'The job’s date: the rule counts from it (every 3 months from this month, say)'
                  : 'The first day the rule counts from'
              }
              window={window}
              onWindow={setWindow}
              errors={{ ...server.fields, ...problems }}
              preview={preview}
              timeZone={zone}
            />
          </section>
        </div>
        {series && (
          <RadioChoices
            legend="Which visits change"
            name="series-apply-to"
            value={applyTo}
            onChange={setApplyTo}
            options={[
              {
                value: 'FUTURE_OCCURRENCES',
                label: 'Only the dates not made into jobs yet',
                hint: 'The jobs already made for the coming weeks stay as they are; later dates take the change.',
              },
              {
                value: 'FUTURE_JOBS',
                label: `Also change the ${openJobs.length} ${openJobs.length === 1 ? 'job' : 'jobs'} already made that nobody has assigned yet`,
                hint: 'Assigned, started and finished jobs never change; change them on their own page.',
              },
            ]}
          />
        )}
      </div>
    </FormDialog>
  )
}

/** A refused save's messages by this dialog's fields, and what no field shows. */
function serverProblems(error: unknown): { fields: Record<string, string>; form: string | null } {
  if (!error) return { fields: {}, form: null }
  if (!(error instanceof ApiError))
    return { fields: {}, form: error instanceof Error ? error.message : String(error) }
  const fields: Record<string, string> = {}
  let unshown = false
  for (const detail of error.details) {
    const field = fieldOfPath(detail.path)
    if (field && (SHOWN.includes(field) || ['demands', 'rule', 'startDate', 'windowTimes'].includes(field))) {
      fields[field] ??= detail.message
    } else unshown = true
  }
  return { fields, form: unshown || error.details.length === 0 ? error.message : null }
}
