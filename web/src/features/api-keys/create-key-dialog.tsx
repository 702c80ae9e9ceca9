// Create an API key (like cal.com's and Stripe's): name, scopes, an expiry preset or a date, a rate
// limit. On success the same dialog shows the full key once, with Copy and a warning.
import { useTimeZone } from '../../app/time-zone'
import { todayIn, zonedToUtc } from '../../lib/time'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field } from '../../ui/form'
import { FormDialog } from '../../ui/form-dialog'
import { TextField } from '../../ui/form-fields'
import { SecretReveal } from '../../ui/secret-reveal'
import { useFormState } from '../../ui/use-form-state'
import { type ApiKeyScope, useCreateApiKey } from './queries'
import { ScopeBadges } from './scope-badges'

const SCOPES: { value: ApiKeyScope; label: string; hint: string }[] = [
  { value: 'read', label: 'Read', hint: 'GET requests on the public API' },
  { value: 'write', label: 'Write', hint: 'Create, update and delete on the public API' },
  { value: 'admin', label: 'Admin', hint: 'Everything, including the admin API (team, keys, automations)' },
]

const EXPIRY_PRESETS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
  { value: 'date', label: 'Custom date' },
] as const
type Expiry = (typeof EXPIRY_PRESETS)[number]['value']

const FIELDS = ['name', 'scopes', 'expiresAt', 'rateLimitPerMinute'] as const
const DAY_MS = 86_400_000

export function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateApiKey()
  const timeZone = useTimeZone()
  const form = useFormState(
    { name: '', scopes: ['read'] as ApiKeyScope[], expiry: '90' as Expiry, date: '', rateLimitPerMinute: '' },
    { fields: FIELDS, submission: create },
  )
  const { name, scopes, expiry, date, rateLimitPerMinute: rateLimit } = form.values
  // A missing date is the form's own check (`date`); the server names `expiresAt`.
  const dateError = form.error('date') ?? form.error('expiresAt')

  if (create.data) {
    const { apiKey, key } = create.data
    return (
      <Dialog
        title="API key created"
        description={`“${apiKey.name}” is ready to use.`}
        onClose={onClose}
        footer={
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        }
      >
        <SecretReveal label="Secret key" value={key} />
        <dl className="details">
          <dt>Scopes</dt>
          <dd>
            <ScopeBadges scopes={apiKey.scopes} />
          </dd>
          <dt>Use it as</dt>
          <dd className="mono">Authorization: Bearer {apiKey.prefix}…</dd>
        </dl>
      </Dialog>
    )
  }

  const submit = () => {
    if (!form.check(expiry === 'date' && !date ? { date: 'is required: choose a date' } : {})) return
    const expiresAt =
      expiry === 'never'
        ? undefined
        : expiry === 'date'
          ? zonedToUtc(date, '23:59', timeZone).toISOString()
          : new Date(Date.now() + Number(expiry) * DAY_MS).toISOString()
    const limit = rateLimit.trim() === '' ? undefined : Number(rateLimit)
    create.mutate({
      name: name.trim(),
      scopes,
      ...(expiresAt === undefined ? {} : { expiresAt }),
      ...(limit === undefined ? {} : { rateLimitPerMinute: limit }),
    })
  }
  const toggleScope = (scope: ApiKeyScope, on: boolean) =>
    form.setField('scopes', on ? [...scopes, scope] : scopes.filter((s) => s !== scope))

  return (
    <FormDialog
      title="Create API key"
      description="Keys authenticate your integrations with the fieldservice API. Use one key per integration."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create key"
      submitting={form.submitting}
      formError={form.formError}
    >
      <TextField
        form={form}
        name="name"
        label="Name"
        hint="What the key is for, e.g. “ERP sync”."
        maxLength={100}
      />
      <fieldset className="choice-group" aria-describedby={form.error('scopes') ? 'scopes-error' : undefined}>
        <legend className="field-label">Scopes</legend>
        {SCOPES.map((scope) => (
          <label className="choice" key={scope.value}>
            <input
              type="checkbox"
              checked={scopes.includes(scope.value)}
              onChange={(e) => toggleScope(scope.value, e.target.checked)}
            />
            <span>
              {scope.label}
              <span className="choice-hint">{scope.hint}</span>
            </span>
          </label>
        ))}
        {form.error('scopes') && (
          <span className="field-error" id="scopes-error">
            Scopes {form.error('scopes')}
          </span>
        )}
      </fieldset>
      <fieldset className="choice-group">
        <legend className="field-label">Expiration</legend>
        <div className="segmented">
          {EXPIRY_PRESETS.map((preset) => (
            <label key={preset.value}>
              <input
                type="radio"
                name="expiry"
                value={preset.value}
                checked={expiry === preset.value}
                onChange={() => form.setField('expiry', preset.value)}
              />
              {preset.label}
            </label>
          ))}
        </div>
        {expiry === 'date' ? (
          <Field
            label="Expiry date"
            hint={`The key stops working at 23:59 ${timeZone} time.`}
            error={dateError}
          >
            {(control) => (
              <input
                {...control}
                className="input"
                type="date"
                min={todayIn(timeZone)}
                {...form.text('date')}
              />
            )}
          </Field>
        ) : (
          form.error('expiresAt') && <span className="field-error">Expiration {form.error('expiresAt')}</span>
        )}
      </fieldset>
      <TextField
        form={form}
        name="rateLimitPerMinute"
        label="Rate limit (requests per minute)"
        optional
        hint="Shared by the public and admin APIs. Empty: the server default (100)."
        type="number"
        inputMode="numeric"
        min={1}
        placeholder="100"
      />
    </FormDialog>
  )
}
