// Rotate a key: a new secret with the same name, scopes, limit and expiry; the old one stops at once
// or after a grace period (at most 7 days, never past its own expiry) so integrations can switch.
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { DateTime } from '../../ui/date-time'
import { Dialog } from '../../ui/dialog'
import { FormDialog } from '../../ui/form-dialog'
import { RadioChoices } from '../../ui/form-fields'
import { SecretReveal } from '../../ui/secret-reveal'
import { useFormState } from '../../ui/use-form-state'
import { type ApiKey, useRotateApiKey } from './queries'

const GRACE_PERIODS = [
  { value: 0, label: 'Immediately', hint: 'The old key stops working now' },
  { value: 3600, label: 'In 1 hour' },
  { value: 86_400, label: 'In 24 hours' },
  { value: 604_800, label: 'In 7 days', hint: 'The longest grace period' },
]

export function RotateKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const rotate = useRotateApiKey()
  const form = useFormState(
    { gracePeriodSeconds: 86_400 },
    { fields: ['gracePeriodSeconds'], submission: rotate },
  )

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
    <FormDialog
      title={`Rotate “${apiKey.name}”`}
      description="Creates a new secret with the same name, scopes, rate limit and expiry."
      onClose={onClose}
      onSubmit={() => rotate.mutate({ id: apiKey.id, gracePeriodSeconds: form.values.gracePeriodSeconds })}
      submitLabel="Rotate key"
      submitting={form.submitting}
      formError={form.formError}
    >
      <RadioChoices
        legend={`The old key (${apiKey.prefix}…) stops working`}
        name="grace"
        value={form.values.gracePeriodSeconds}
        options={GRACE_PERIODS}
        onChange={(seconds) => form.setField('gracePeriodSeconds', seconds)}
      />
      {apiKey.expiresAt && (
        <Banner tone="info">The grace period never runs past the key’s own expiry.</Banner>
      )}
    </FormDialog>
  )
}
