// Add a team member (name, email, role; the server gives them the least used colour) and edit a
// member's role and colour.
import { FormDialog } from '../../ui/form-dialog'
import { RadioChoices, TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
import { colourOf } from '../board/worker-colour'
import { ColourChoices } from './colour-choices'
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

/** The values that differ from the member's: the PATCH changes only the fields it is sent. */
function changedValues<V extends object>(from: V, to: V): Partial<V> {
  return Object.fromEntries(
    Object.entries(to).filter(([field, value]) => from[field as keyof V] !== value),
  ) as Partial<V>
}

export function EditUserDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const update = useUpdateUser()
  const initial = { role: user.role, colour: colourOf(user) }
  const form = useFormState(initial, { fields: ['role', 'colour'], submission: update })
  return (
    <FormDialog
      title={`Edit ${user.name}`}
      onClose={onClose}
      onSubmit={() =>
        update.mutate({ id: user.id, ...changedValues(initial, form.values) }, { onSuccess: onClose })
      }
      submitLabel="Save"
      submitting={form.submitting}
      submitDisabled={!form.dirty}
      formError={form.formError}
    >
      <RoleChoices value={form.values.role} onChange={(role) => form.setField('role', role)} />
      <ColourChoices
        value={form.values.colour}
        onChange={(colour) => form.setField('colour', colour)}
        error={form.error('colour')}
      />
    </FormDialog>
  )
}
