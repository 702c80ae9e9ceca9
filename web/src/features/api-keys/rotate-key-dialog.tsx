// Rotate a key: a new secret with the same name, scopes, limit and expiry; the old one stops at once
// or after a grace period (at most 7 days, never past its own expiry) so integrations can switch.
import { useState } from 'react'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { DateTime } from '../../ui/date-time'
import { Dialog } from '../../ui/dialog'
import { FormError, serverErrors } from '../../ui/form'
import { SecretReveal } from '../../ui/secret-reveal'
import { type ApiKey, useRotateApiKey } from './queries'

const GRACE_PERIODS = [
  { seconds: 0, label: 'Immediately', hint: 'The old key stops working now' },
  { seconds: 3600, label: 'In 1 hour', hint: '' },
  { seconds: 86_400, label: 'In 24 hours', hint: '' },
  { seconds: 604_800, label: 'In 7 days', hint: 'The longest grace period' },
]

export function RotateKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const rotate = useRotateApiKey()
  const [grace, setGrace] = useState(86_400)
  const errors = serverErrors(rotate.error, ['gracePeriodSeconds'])

  if (rotate.data) {
    return (
      <Dialog
        title="API key rotated"
        description={`A new key replaces “${apiKey.name}”.`}
        onClose={onClose}
        footer={
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        }
      >
        <SecretReveal
          label="New secret key"
          value={rotate.data.key}
          warning="Update your integration with the new key. Only a hash is stored, so it cannot be shown again."
        />
        <p className="muted">
          {rotate.data.previous.revokedAt ? (
            `The old key (${apiKey.prefix}…) no longer works.`
          ) : (
            <>
              The old key ({apiKey.prefix}…) keeps working until{' '}
              <DateTime value={rotate.data.previous.expiresAt} />.
            </>
          )}
        </p>
      </Dialog>
    )
  }

  return (
    <Dialog
      title={`Rotate “${apiKey.name}”`}
      description="Creates a new secret with the same name, scopes, rate limit and expiry."
      onClose={onClose}
      onSubmit={() => rotate.mutate({ id: apiKey.id, gracePeriodSeconds: grace })}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={rotate.isPending}>
            Rotate key
          </Button>
        </>
      }
    >
      <FormError message={errors.form} />
      <fieldset className="choice-group">
        <legend className="field-label">The old key ({apiKey.prefix}…) stops working</legend>
        {GRACE_PERIODS.map((period) => (
          <label className="choice" key={period.seconds}>
            <input
              type="radio"
              name="grace"
              checked={grace === period.seconds}
              onChange={() => setGrace(period.seconds)}
            />
            <span>
              {period.label}
              {period.hint && <span className="choice-hint">{period.hint}</span>}
            </span>
          </label>
        ))}
      </fieldset>
      {apiKey.expiresAt && (
        <Banner tone="info">The grace period never runs past the key’s own expiry.</Banner>
      )}
    </Dialog>
  )
}
