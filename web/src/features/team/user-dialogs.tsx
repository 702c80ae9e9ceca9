// Add a team member (name, email, role) and change a member's role.
import { FormDialog } from '../../ui/form-dialog'
import { RadioChoices, TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
import { ROLES, type User, type UserRole, useCreateUser, useUpdateUser } from './queries'

function RoleChoices({ value, onChange }: { value: UserRole; onChange: (role: UserRole) => void }) {
  return <RadioChoices legend="Role" name="role" value={value} options={ROLES} onChange={onChange} />
}

export function AddUserDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (user: User) => void }) {
  const create = useCreateUser()
  const form = useFormState(
    { name: '', email: '', role: 'WORKER' as UserRole },
    {
      fields: ['name', 'email', 'role'],
      submission: create,
    },
  )
  const { values } = form
  return (
    <FormDialog
      title="Add team member"
      description="Workers do the jobs; dispatchers and admins use this dashboard."
      onClose={onClose}
      onSubmit={() =>
        create.mutate(
          { name: values.name.trim(), email: values.email.trim(), role: values.role },
          { onSuccess: ({ user }) => onAdded(user) },
        )
      }
      submitLabel="Add member"
      submitting={form.submitting}
      formError={form.formError}
    >
      <TextField form={form} name="name" label="Name" autoComplete="off" />
      <TextField form={form} name="email" label="Email" type="email" autoComplete="off" />
      <RoleChoices value={values.role} onChange={(role) => form.setField('role', role)} />
    </FormDialog>
  )
}

export function ChangeRoleDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const update = useUpdateUser()
  const form = useFormState({ role: user.role }, { fields: ['role'], submission: update })
  return (
    <FormDialog
      title={`Change ${user.name}’s role`}
      onClose={onClose}
      onSubmit={() => update.mutate({ id: user.id, role: form.values.role }, { onSuccess: onClose })}
      submitLabel="Save role"
      submitting={form.submitting}
      submitDisabled={!form.dirty}
      formError={form.formError}
    >
      <RoleChoices value={form.values.role} onChange={(role) => form.setField('role', role)} />
    </FormDialog>
  )
}
