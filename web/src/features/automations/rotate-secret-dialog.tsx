// A new signing secret, shown once. For the grace period both secrets sign (two `v1,` signatures),
// so the receiver can switch without failing a delivery.
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormError, serverErrors } from '../../ui/form'
import { SecretReveal } from '../../ui/secret-reveal'
import { type Automation, useRotateSecret } from './queries'

const GRACE = [
  { seconds: 0, label: 'Stop signing with the old secret now' },
  { seconds: 3600, label: 'Sign with both for 1 hour' },
  { seconds: 86_400, label: 'Sign with both for 24 hours' },
  { seconds: 604_800, label: 'Sign with both for 7 days' },
]

export function RotateSecretDialog({ automation, onClose }: { automation: Automation; onClose: () => void }) {
  const rotate = useRotateSecret(automation.id)
  const [grace, setGrace] = useState(86_400)
  const errors = serverErrors(rotate.error, ['gracePeriodSeconds'])
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
    <Dialog
      title="Rotate signing secret"
      description={`A new secret for “${automation.name}”. The current one starts with ${automation.secretHint}`}
      onClose={onClose}
      onSubmit={() => rotate.mutate(grace)}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={rotate.isPending}>
            Rotate secret
          </Button>
        </>
      }
    >
      <FormError message={errors.form} />
      <fieldset className="choice-group">
        <legend className="field-label">Grace period</legend>
        {GRACE.map((option) => (
          <label className="choice" key={option.seconds}>
            <input
              type="radio"
              name="grace"
              checked={grace === option.seconds}
              onChange={() => setGrace(option.seconds)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
    </Dialog>
  )
}
