// Team: everyone in the organisation (server-side search, role and status filters, paging), each with
// their colour. Admins add members, edit roles and colours, deactivate and reactivate; admins and
// dispatchers record absences.
import './team.css'
import { useState } from 'react'
import { errorMessage } from '../../api/errors'
import { useSession } from '../../app/session'
import { useListParams } from '../../lib/search-params'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import type { Column } from '../../ui/data-table'
import { DateTime } from '../../ui/date-time'
import { DownloadListCsv } from '../../ui/download-list-csv'
import { ListPage } from '../../ui/list-page'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { colourOf } from '../board/worker-colour'
import { AbsencesDialog } from './absences-dialog'
import { ColourSwatch } from './colour-choices'
import { SetPasswordDialog } from './password-dialog'
import {
  allUsers,
  ROLES,
  roleLabel,
  USER_CSV,
  type User,
  type UserRole,
  useSetUserActive,
  useUsers,
} from './queries'
import { AddUserDialog, EditUserDialog } from './user-dialogs'

const STATES = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Deactivated' },
]

export function TeamPage() {
  const session = useSession()
  const canManage = session.user.role === 'ADMIN'
  const params = useListParams()
  const role = params.get('role') as UserRole | undefined
  const state = params.get('state')
  const search = params.get('q')
  const filters = {
    ...(role ? { role } : {}),
    ...(state ? { isActive: state === 'active' } : {}),
    ...(search ? { search } : {}),
  }
  const users = useUsers(params.page, filters)
  const setActive = useSetUserActive()
  const toast = useToast()
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<User | null>(null)
  const [deactivating, setDeactivating] = useState<User | null>(null)
  const [settingPassword, setSettingPassword] = useState<User | null>(null)
  const [absencesOf, setAbsencesOf] = useState<User | null>(null)

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
        <span className="team-member">
          <ColourSwatch colour={colourOf(u)} />
          <span className="stack" style={{ gap: 0 }}>
            <strong>{u.name}</strong>
            <span className="muted">{u.email}</span>
          </span>
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
    {
      header: 'Absences',
      hiddenHeader: true,
      cell: (u) => (
        <Button size="sm" onClick={() => setAbsencesOf(u)} aria-label={`Absences of ${u.name}`}>
          Absences
        </Button>
      ),
    },
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
                <Button size="sm" onClick={() => setEditing(u)} aria-label={`Edit ${u.name}`}>
                  Edit
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
    <ListPage
      title="Team"
      description="Workers, dispatchers and admins of your organisation."
      actions={
        <>
          <DownloadListCsv filename="team.csv" columns={USER_CSV} load={() => allUsers(filters)} />
          {canManage && (
            <Button variant="primary" onClick={() => setAdding(true)}>
              Add member
            </Button>
          )}
        </>
      }
      filters={{
        params,
        items: [
          { kind: 'search', placeholder: 'Name or email' },
          { kind: 'select', param: 'role', label: 'Role', anyLabel: 'Any role', options: ROLES },
          { kind: 'select', param: 'state', label: 'Status', anyLabel: 'Any status', options: STATES },
        ],
        noMatches: { title: 'Nobody matches these filters' },
      }}
      table={{
        label: 'Team members',
        columns,
        rows: users.data?.users,
        rowKey: (u) => u.id,
        query: users,
        pagination: users.data?.pagination,
        onPage: (page) => params.set({ page }),
        noun: 'members',
        empty: (
          <EmptyState
            icon="👥"
            title="No team members yet"
            description="Add the people who do and plan the jobs."
          />
        ),
      }}
    >
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
      {absencesOf && <AbsencesDialog user={absencesOf} onClose={() => setAbsencesOf(null)} />}
      {editing && <EditUserDialog user={editing} onClose={() => setEditing(null)} />}
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
    </ListPage>
  )
}
