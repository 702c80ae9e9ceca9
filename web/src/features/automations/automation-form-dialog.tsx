// Create or edit an automation: trigger event, action (Send Webhook), URL, name; a new one can be
// activated at once. Creating shows the signing secret once.
import { useState } from 'react'
import { Link } from 'react-router'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field, FormError, serverErrors } from '../../ui/form'
import { SecretReveal } from '../../ui/secret-reveal'
import { EVENTS, type EventName } from './events'
import { type Automation, useCreateAutomation, useUpdateAutomation } from './queries'

const FIELDS = ['name', 'event', 'url', 'action', 'isActive'] as const

export function CreateAutomationDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateAutomation()
  if (create.data) {
    const { automation, secret } = create.data
    return (
      <Dialog
        title="Automation created"
        description={`“${automation.name}” ${automation.isActive ? 'is active' : 'is inactive'}.`}
        onClose={onClose}
        footer={
          <>
            <Link className="btn" to={`/settings/automations/${automation.id}`} onClick={onClose}>
              Open automation
            </Link>
            <Button variant="primary" onClick={onClose}>
              Done
            </Button>
          </>
        }
      >
        <SecretReveal
          label="Signing secret"
          value={secret}
          warning="Your endpoint verifies each webhook with this secret (Standard Webhooks signatures). It cannot be shown again; you can rotate it."
        />
      </Dialog>
    )
  }
  return (
    <AutomationForm
      title="Create automation"
      submitLabel="Create automation"
      pending={create.isPending}
      error={create.error}
      onClose={onClose}
      onSubmit={(values) => create.mutate(values)}
    />
  )
}

export function EditAutomationDialog({
  automation,
  onClose,
}: {
  automation: Automation
  onClose: () => void
}) {
  const update = useUpdateAutomation(automation.id)
  return (
    <AutomationForm
      title="Edit automation"
      submitLabel="Save changes"
      initial={automation}
      pending={update.isPending}
      error={update.error}
      onClose={onClose}
      onSubmit={({ name, event, url }) => update.mutate({ name, event, url }, { onSuccess: onClose })}
    />
  )
}

interface Values {
  name?: string
  event: EventName
  action: 'SEND_WEBHOOK'
  url: string
  isActive?: boolean
}

function AutomationForm({
  title,
  submitLabel,
  initial,
  pending,
  error,
  onClose,
  onSubmit,
}: {
  title: string
  submitLabel: string
  initial?: Automation
  pending: boolean
  error: unknown
  onClose: () => void
  onSubmit: (values: Values) => void
}) {
  const [name, setName] = useState(initial?.name ?? '')
  const [event, setEvent] = useState<EventName>(initial?.event ?? 'JOB_COMPLETED')
  const [url, setUrl] = useState(initial?.url ?? '')
  const [isActive, setIsActive] = useState(true)
  const errors = serverErrors(error, FIELDS)
  const submit = () =>
    onSubmit({
      event,
      action: 'SEND_WEBHOOK',
      url: url.trim(),
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(initial ? {} : { isActive }),
    })
  return (
    <Dialog
      title={title}
      description="When the event happens in your organisation, fieldservice POSTs it, signed, to your URL."
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={pending}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <FormError message={errors.form} />
      <Field label="Trigger event" error={errors.fields.event}>
        {(control) => (
          <select
            {...control}
            className="select"
            value={event}
            onChange={(e) => setEvent(e.target.value as EventName)}
          >
            {EVENTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label} — {option.hint}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Action"
        hint="The event is sent as a JSON POST: { event, timestamp, data }."
        error={errors.fields.action}
      >
        {(control) => (
          <select
            {...control}
            className="select"
            value="SEND_WEBHOOK"
            disabled={Boolean(initial)}
            onChange={() => {}}
          >
            <option value="SEND_WEBHOOK">Send webhook</option>
          </select>
        )}
      </Field>
      <Field
        label="Endpoint URL"
        hint="An https URL on the public internet. One attempt, 10 s to answer, no retries; every attempt is logged."
        error={errors.fields.url}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            type="url"
            inputMode="url"
            placeholder="https://erp.example.com/hooks/fieldservice"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Name"
        optional
        hint="Shown in lists and logs. Empty: “<event> webhook”."
        error={errors.fields.name}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      {!initial && (
        <label className="choice">
          <input type="checkbox" checked={isActive} onChange={(e) => setIsActive(e.target.checked)} />
          <span>
            Activate now
            <span className="choice-hint">Inactive automations send nothing until you activate them.</span>
          </span>
        </label>
      )}
    </Dialog>
  )
}
