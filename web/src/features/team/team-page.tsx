// Team: everyone in the organisation (server-side search, role and status filters, paging). Admins
// add members, change roles, deactivate and reactivate; dispatchers see the list only.
import { useEffect, useState } from 'react'
import { errorMessage } from '../../api/errors'
import { useSession } from '../../app/session'
import { useListParams } from '../../lib/search-params'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { type Column, DataTable } from '../../ui/data-table'
import { DateTime } from '../../ui/date-time'
import { Field } from '../../ui/form'
import { PageHeader } from '../../ui/page-header'
import { Pager } from '../../ui/pager'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { SetPasswordDialog } from './password-dialog'
import { ROLES, roleLabel, type User, type UserRole, useSetUserActive, useUsers } from './queries'
import { AddUserDialog, ChangeRoleDialog } from './user-dialogs'

export function TeamPage() {
  const session = useSession()
  const canManage = session.user.role === 'ADMIN'
  const params = useListParams()
  const role = params.get('role') as UserRole | undefined
  const state = params.get('state')
  const search = params.get('q')
  const [searchText, setSearchText] = useState(search ?? '')
  // The search runs on the server: wait for a pause in typing.
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((search ?? '') !== searchText.trim()) params.set({ q: searchText.trim() })
    }, 300)
    return () => clearTimeout(timer)
  }, [searchText, search, params])
  const users = useUsers(params.page, {
    ...(role ? { role } : {}),
    ...(state ? { isActive: state === 'active' } : {}),
    ...(search ? { search } : {}),
  })
  const setActive = useSetUserActive()
  const toast = useToast()
  const [adding, setAdding] = useState(false)
  const [changing, setChanging] = useState<User | null>(null)
  const [deactivating, setDeactivating] = useState<User | null>(null)
  const [settingPassword, setSettingPassword] = useState<User | null>(null)
  const filtered = Boolean(role || state || search)

  const activate = (user: User) =>
    setActive.mutate(
      { id: user.id, active: true },
      {
        onSuccess: () => toast.success(`${user.name} reactivated`),
        onError: (error) => toast.error(errorMessage(error)),
      },
    )

  const columns: Column<User>[] = [
    {
      header: 'Name',
      cell: (u) => (
        <span className="stack" style={{ gap: 0 }}>
          <strong>{u.name}</strong>
          <span className="muted">{u.email}</span>
        </span>
      ),
    },
    {
      header: 'Role',
      cell: (u) => (
        <Badge tone={u.role === 'ADMIN' ? 'purple' : u.role === 'DISPATCHER' ? 'blue' : 'neutral'}>
          {roleLabel(u.role)}
        </Badge>
      ),
    },
    {
      header: 'Status',
      cell: (u) => (u.isActive ? <Badge tone="green">Active</Badge> : <Badge>Deactivated</Badge>),
    },
    {
      header: 'Dashboard',
      cell: (u) =>
        u.role === 'WORKER' ? (
          <span className="muted">Technician app</span>
        ) : u.hasPassword ? (
          'Can sign in'
        ) : (
          <span className="muted">No password yet</span>
        ),
    },
    { header: 'Added', cell: (u) => <DateTime value={u.createdAt} dateOnly /> },
    ...(canManage
      ? [
          {
            header: 'Actions',
            hiddenHeader: true,
            className: 'cell-actions',
            cell: (u: User) => (
              <span className="row" style={{ justifyContent: 'flex-end', flexWrap: 'nowrap' }}>
                {u.role !== 'WORKER' && (
                  <Button
                    size="sm"
                    onClick={() => setSettingPassword(u)}
                    aria-label={`${u.hasPassword ? 'Change' : 'Set'} password of ${u.name}`}
                  >
                    {u.hasPassword ? 'Change password' : 'Set password'}
                  </Button>
                )}
                <Button size="sm" onClick={() => setChanging(u)} aria-label={`Change role of ${u.name}`}>
                  Change role
                </Button>
                {u.isActive ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={u.id === session.user.id}
                    onClick={() => setDeactivating(u)}
                    aria-label={`Deactivate ${u.name}`}
                  >
                    Deactivate
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => activate(u)}
                    aria-label={`Reactivate ${u.name}`}
                  >
                    Reactivate
                  </Button>
                )}
              </span>
            ),
          },
        ]
      : []),
  ]

  return (
    <div className="page">
      <PageHeader
        title="Team"
        description="Workers, dispatchers and admins of your organisation."
        actions={
          canManage && (
            <Button variant="primary" onClick={() => setAdding(true)}>
              Add member
            </Button>
          )
        }
      />
      <div className="filters">
        <Field label="Search">
          {(control) => (
            <input
              {...control}
              className="input"
              type="search"
              placeholder="Name or email"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
            />
          )}
        </Field>
        <Field label="Role">
          {(control) => (
            <select
              {...control}
              className="select"
              value={role ?? ''}
              onChange={(e) => params.set({ role: e.target.value })}
            >
              <option value="">Any role</option>
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Status">
          {(control) => (
            <select
              {...control}
              className="select"
              value={state ?? ''}
              onChange={(e) => params.set({ state: e.target.value })}
            >
              <option value="">Any status</option>
              <option value="active">Active</option>
              <option value="inactive">Deactivated</option>
            </select>
          )}
        </Field>
      </div>
      <div>
        <DataTable
          label="Team members"
          columns={columns}
          rows={users.data?.users}
          rowKey={(u) => u.id}
          isLoading={users.isPending}
          error={users.error}
          onRetry={() => users.refetch()}
          empty={
            filtered ? (
              <EmptyState
                title="Nobody matches these filters"
                action={
                  <Button
                    onClick={() => {
                      setSearchText('')
                      params.set({ role: undefined, state: undefined, q: undefined })
                    }}
                  >
                    Clear filters
                  </Button>
                }
              />
            ) : (
              <EmptyState
                icon="👥"
                title="No team members yet"
                description="Add the people who do and plan the jobs."
              />
            )
          }
        />
        <Pager pagination={users.data?.pagination} onPage={(page) => params.set({ page })} noun="members" />
      </div>
      {adding && (
        <AddUserDialog
          onClose={() => setAdding(false)}
          onAdded={(user) => {
            setAdding(false)
            toast.success(`${user.name} added as ${roleLabel(user.role).toLowerCase()}`)
            // Admins and dispatchers need a password to sign in: ask for it straight away.
            if (user.role !== 'WORKER') setSettingPassword(user)
          }}
        />
      )}
      {changing && <ChangeRoleDialog user={changing} onClose={() => setChanging(null)} />}
      {settingPassword && (
        <SetPasswordDialog
          user={settingPassword}
          onClose={() => setSettingPassword(null)}
          onDone={() => {
            toast.success(`Password of ${settingPassword.name} saved`)
            setSettingPassword(null)
          }}
        />
      )}
      {deactivating && (
        <ConfirmDialog
          title={`Deactivate ${deactivating.name}?`}
          confirmLabel="Deactivate"
          pending={setActive.isPending}
          error={setActive.error}
          onClose={() => {
            setActive.reset()
            setDeactivating(null)
          }}
          onConfirm={() =>
            setActive.mutate(
              { id: deactivating.id, active: false },
              {
                onSuccess: () => {
                  toast.success(`${deactivating.name} deactivated`)
                  setDeactivating(null)
                },
              },
            )
          }
        >
          <p>
            They are signed out everywhere and can no longer be assigned jobs. Their past shifts and jobs keep
            their name. You can reactivate them later.
          </p>
        </ConfirmDialog>
      )}
    </div>
  )
}
