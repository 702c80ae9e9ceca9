// Set or replace a team member's dashboard password. Admins and dispatchers with a password can sign
// in; setting it signs the member out everywhere (the admin too, when it is their own).
import { useState } from 'react'
import { useSession } from '../../app/session'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field, FormError, serverErrors } from '../../ui/form'
import { MIN_PASSWORD_LENGTH, type User, useSetUserPassword } from './queries'

export function SetPasswordDialog({
  user,
  onClose,
  onDone,
}: {
  user: User
  onClose: () => void
  onDone: () => void
}) {
  const session = useSession()
  const setPassword = useSetUserPassword()
  const [password, setPasswordValue] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [local, setLocal] = useState<{ password?: string; confirmation?: string }>({})
  const errors = serverErrors(setPassword.error, ['password'])
  const own = user.id === session.user.id

  const submit = () => {
    const problems = {
      ...(password.length < MIN_PASSWORD_LENGTH
        ? { password: `must be at least ${MIN_PASSWORD_LENGTH} characters` }
        : {}),
      ...(confirmation !== password ? { confirmation: 'does not match the password' } : {}),
    }
    setLocal(problems)
    if (Object.keys(problems).length > 0) return
    setPassword.mutate({ id: user.id, password }, { onSuccess: onDone })
  }

  return (
    <Dialog
      title={`${user.hasPassword ? 'Change' : 'Set'} ${user.name}’s password`}
      description="Admins and dispatchers sign in to this dashboard with their email and this password."
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={setPassword.isPending}>
            Save password
          </Button>
        </>
      }
    >
      <FormError message={errors.form} />
      {user.hasPassword && (
        <Banner tone="warning">
          {own
            ? 'You will be signed out everywhere, this browser included, and sign in again with the new password.'
            : `${user.name} will be signed out everywhere.`}
        </Banner>
      )}
      <Field
        label="New password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. A few unrelated words make a strong one.`}
        error={local.password ?? errors.fields.password}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPasswordValue(e.target.value)}
          />
        )}
      </Field>
      <Field label="Repeat the password" error={local.confirmation}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
          />
        )}
      </Field>
    </Dialog>
  )
}
