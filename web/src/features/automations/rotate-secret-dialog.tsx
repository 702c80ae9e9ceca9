// A new signing secret, shown once. For the grace period both secrets sign (two `v1,` signatures),
// so the receiver can switch without failing a delivery.
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormDialog } from '../../ui/form-dialog'
import { RadioChoices } from '../../ui/form-fields'
import { SecretReveal } from '../../ui/secret-reveal'
import { useFormState } from '../../ui/use-form-state'
import { type Automation, useRotateSecret } from './queries'

const GRACE = [
  { value: 0, label: 'Stop signing with the old secret now' },
  { value: 3600, label: 'Sign with both for 1 hour' },
  { value: 86_400, label: 'Sign with both for 24 hours' },
  { value: 604_800, label: 'Sign with both for 7 days' },
]

export function RotateSecretDialog({ automation, onClose }: { automation: Automation; onClose: () => void }) {
  const rotate = useRotateSecret(automation.id)
  const form = useFormState(
    { gracePeriodSeconds: 86_400 },
    { fields: ['gracePeriodSeconds'], submission: rotate },
  )
  if (rotate.data) {
    return (
      <Dialog
        title="Signing secret rotated"
        onClose={onClose}
        footer={
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        }
      >
        <SecretReveal
          label="New signing secret"
          value={rotate.data.secret}
          warning="Give it to your endpoint now: it cannot be shown again."
        />
      </Dialog>
    )
  }
  return (
    <FormDialog
      title="Rotate signing secret"
      description={`A new secret for “${automation.name}”. The current one starts with ${automation.secretHint}`}
      onClose={onClose}
      onSubmit={() => rotate.mutate(form.values.gracePeriodSeconds)}
      submitLabel="Rotate secret"
      submitting={form.submitting}
      formError={form.formError}
    >
      <RadioChoices
        legend="Grace period"
        name="grace"
        value={form.values.gracePeriodSeconds}
        options={GRACE}
        onChange={(seconds) => form.setField('gracePeriodSeconds', seconds)}
      />
    </FormDialog>
  )
}
