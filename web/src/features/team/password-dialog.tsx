// Set or replace a team member's dashboard password. Admins and dispatchers with a password can sign
// in; setting it signs the member out everywhere (the admin too, when it is their own).
import { useSession } from '../../app/session'
import { Banner } from '../../ui/banner'
import { FormDialog } from '../../ui/form-dialog'
import { TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
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
  const form = useFormState(
    { password: '', confirmation: '' },
    { fields: ['password'], submission: setPassword },
  )
  const { password, confirmation } = form.values
  const own = user.id === session.user.id

  const submit = () => {
    const problems = {
      ...(password.length < MIN_PASSWORD_LENGTH
        ? { password: `must be at least ${MIN_PASSWORD_LENGTH} characters` }
        : {}),
      ...(confirmation !== password ? { confirmation: 'does not match the password' } : {}),
    }
    if (!form.check(problems)) return
    setPassword.mutate({ id: user.id, password }, { onSuccess: onDone })
  }

  return (
    <FormDialog
      title={`${user.hasPassword ? 'Change' : 'Set'} ${user.name}’s password`}
      description="Admins and dispatchers sign in to this dashboard with their email and this password."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save password"
      submitting={form.submitting}
      formError={form.formError}
    >
      {user.hasPassword && (
        <Banner tone="warning">
          {own
            ? 'You will be signed out everywhere, this browser included, and sign in again with the new password.'
            : `${user.name} will be signed out everywhere.`}
        </Banner>
      )}
      <TextField
        form={form}
        name="password"
        label="New password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. A few unrelated words make a strong one.`}
        type="password"
        autoComplete="new-password"
      />
      <TextField
        form={form}
        name="confirmation"
        label="Repeat the password"
        type="password"
        autoComplete="new-password"
      />
    </FormDialog>
  )
}
