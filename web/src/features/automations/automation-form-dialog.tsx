// Create or edit an automation: trigger event, action (Send Webhook), URL, name; a new one can be
// activated at once. Creating shows the signing secret once.
import { Link } from 'react-router'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field } from '../../ui/form'
import { FormDialog } from '../../ui/form-dialog'
import { CheckboxChoice, SelectField, TextField } from '../../ui/form-fields'
import { SecretReveal } from '../../ui/secret-reveal'
import { useFormState } from '../../ui/use-form-state'
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
  const form = useFormState(
    {
      name: initial?.name ?? '',
      event: initial?.event ?? ('JOB_COMPLETED' as EventName),
      url: initial?.url ?? '',
      isActive: true,
    },
    { fields: FIELDS, submission: { error, isPending: pending } },
  )
  const { name, event, url, isActive } = form.values
  const submit = () =>
    onSubmit({
      event,
      action: 'SEND_WEBHOOK',
      url: url.trim(),
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(initial ? {} : { isActive }),
    })
  return (
    <FormDialog
      title={title}
      description="When the event happens in your organisation, fieldservice POSTs it, signed, to your URL."
      onClose={onClose}
      onSubmit={submit}
      submitLabel={submitLabel}
      submitting={form.submitting}
      formError={form.formError}
    >
      <SelectField form={form} name="event" label="Trigger event">
        {EVENTS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label} — {option.hint}
          </option>
        ))}
      </SelectField>
      <Field
        label="Action"
        hint="The event is sent as a JSON POST: { event, timestamp, data }."
        error={form.error('action')}
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
      <TextField
        form={form}
        name="url"
        label="Endpoint URL"
        hint="An https URL on the public internet. One attempt, 10 s to answer, no retries; every attempt is logged."
        type="url"
        inputMode="url"
        placeholder="https://erp.example.com/hooks/fieldservice"
      />
      <TextField
        form={form}
        name="name"
        label="Name"
        optional
        hint="Shown in lists and logs. Empty: “<event> webhook”."
        maxLength={200}
      />
      {!initial && (
        <CheckboxChoice
          form={form}
          name="isActive"
          label="Activate now"
          hint="Inactive automations send nothing until you activate them."
        />
      )}
    </FormDialog>
  )
}
