// Add a team member (name, email, role) and change a member's role.
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field, FormError, serverErrors } from '../../ui/form'
import { ROLES, type User, type UserRole, useCreateUser, useUpdateUser } from './queries'

function RoleChoices({ value, onChange }: { value: UserRole; onChange: (role: UserRole) => void }) {
  return (
    <fieldset className="choice-group">
      <legend className="field-label">Role</legend>
      {ROLES.map((role) => (
        <label className="choice" key={role.value}>
          <input
            type="radio"
            name="role"
            checked={value === role.value}
            onChange={() => onChange(role.value)}
          />
          <span>
            {role.label}
            <span className="choice-hint">{role.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

export function AddUserDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (user: User) => void }) {
  const create = useCreateUser()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<UserRole>('WORKER')
  const errors = serverErrors(create.error, ['name', 'email', 'role'])
  return (
    <Dialog
      title="Add team member"
      description="Workers do the jobs; dispatchers and admins use this dashboard."
      onClose={onClose}
      onSubmit={() =>
        create.mutate(
          { name: name.trim(), email: email.trim(), role },
          { onSuccess: ({ user }) => onAdded(user) },
        )
      }
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={create.isPending}>
            Add member
          </Button>
        </>
      }
    >
      <FormError message={errors.form} />
      <Field label="Name" error={errors.fields.name}>
        {(control) => (
          <input
            {...control}
            className="input"
            value={name}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <Field label="Email" error={errors.fields.email}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
      <RoleChoices value={role} onChange={setRole} />
    </Dialog>
  )
}

export function ChangeRoleDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const update = useUpdateUser()
  const [role, setRole] = useState<UserRole>(user.role)
  const errors = serverErrors(update.error, ['role'])
  return (
    <Dialog
      title={`Change ${user.name}’s role`}
      onClose={onClose}
      onSubmit={() => update.mutate({ id: user.id, role }, { onSuccess: onClose })}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={update.isPending} disabled={role === user.role}>
            Save role
          </Button>
        </>
      }
    >
      <FormError message={errors.form} />
      <RoleChoices value={role} onChange={setRole} />
    </Dialog>
  )
}
