// Settings › API keys: every key of the organisation (server-paged, newest first) with its prefix,
// scopes, dates and status; create (secret shown once), rotate, revoke.
import { useState } from 'react'
import { errorMessage } from '../../api/errors'
import { useListParams } from '../../lib/search-params'
import { Badge, type Tone } from '../../ui/badge'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import type { Column } from '../../ui/data-table'
import { DateTime } from '../../ui/date-time'
import { DownloadListCsv } from '../../ui/download-list-csv'
import { ListPage } from '../../ui/list-page'
import { EmptyState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { CreateKeyDialog } from './create-key-dialog'
import {
  API_KEY_CSV,
  type ApiKey,
  allApiKeys,
  type KeyStatus,
  keyStatus,
  useApiKeys,
  useRevokeApiKey,
} from './queries'
import { RotateKeyDialog } from './rotate-key-dialog'
import { ScopeBadges } from './scope-badges'

const STATUS: Record<KeyStatus, { tone: Tone; label: string }> = {
  active: { tone: 'green', label: 'Active' },
  expiring: { tone: 'amber', label: 'Expiring soon' },
  expired: { tone: 'neutral', label: 'Expired' },
  revoked: { tone: 'red', label: 'Revoked' },
}

export function ApiKeysPage() {
  const params = useListParams()
  const includeRevoked = params.get('revoked') !== 'hide'
  const keys = useApiKeys(params.page, includeRevoked)
  const revoke = useRevokeApiKey()
  const toast = useToast()
  const [creating, setCreating] = useState(false)
  const [rotating, setRotating] = useState<ApiKey | null>(null)
  const [revoking, setRevoking] = useState<ApiKey | null>(null)

  const columns: Column<ApiKey>[] = [
    {
      header: 'Name',
      cell: (key) => (
        <span className="stack" style={{ gap: 0 }}>
          <strong>{key.name}</strong>
          <span className="mono muted">{key.prefix}…</span>
        </span>
      ),
    },
    { header: 'Scopes', cell: (key) => <ScopeBadges scopes={key.scopes} /> },
    {
      header: 'Status',
      cell: (key) => {
        const status = STATUS[keyStatus(key)]
        return <Badge tone={status.tone}>{status.label}</Badge>
      },
    },
    {
      header: 'Rate limit',
      align: 'right',
      cell: (key) => `${key.rateLimitPerMinute.toLocaleString('en')}/min`,
    },
    { header: 'Created', cell: (key) => <DateTime value={key.createdAt} dateOnly /> },
    { header: 'Last used', cell: (key) => <DateTime value={key.lastUsedAt} relative empty="Never" /> },
    {
      header: 'Expires',
      cell: (key) =>
        key.revokedAt ? <span className="muted">—</span> : <DateTime value={key.expiresAt} empty="Never" />,
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      className: 'cell-actions',
      cell: (key) => {
        const status = keyStatus(key)
        if (status === 'revoked' || status === 'expired') return null
        return (
          <span className="row" style={{ justifyContent: 'flex-end', flexWrap: 'nowrap' }}>
            <Button size="sm" onClick={() => setRotating(key)} aria-label={`Rotate ${key.name}`}>
              Rotate
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => setRevoking(key)}
              aria-label={`Revoke ${key.name}`}
            >
              Revoke
            </Button>
          </span>
        )
      },
    },
  ]

  return (
    <ListPage
      title="API keys"
      description="Keys let your ERP, CRM or scripts use the fieldservice API. Each key is shown once, when it is created. Keep keys out of client-side code and public repositories."
      actions={
        <>
          <DownloadListCsv
            filename="api-keys.csv"
            columns={API_KEY_CSV}
            load={() => allApiKeys(includeRevoked)}
          />
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create API key
          </Button>
        </>
      }
      toolbar={
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <label className="choice">
            <input
              type="checkbox"
              checked={!includeRevoked}
              onChange={(e) => params.set({ revoked: e.target.checked ? 'hide' : undefined })}
            />
            Hide revoked keys
          </label>
        </div>
      }
      table={{
        label: 'API keys',
        columns,
        rows: keys.data?.apiKeys,
        rowKey: (key) => key.id,
        query: keys,
        pagination: keys.data?.pagination,
        onPage: (page) => params.set({ page }),
        noun: 'keys',
        empty: (
          <EmptyState
            icon="🔑"
            title={includeRevoked ? 'No API keys yet' : 'No active API keys'}
            description="Create a key to connect an integration to the API."
            action={
              <Button variant="primary" onClick={() => setCreating(true)}>
                Create API key
              </Button>
            }
          />
        ),
      }}
    >
      {creating && <CreateKeyDialog onClose={() => setCreating(false)} />}
      {rotating && <RotateKeyDialog apiKey={rotating} onClose={() => setRotating(null)} />}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          confirmLabel="Revoke key"
          pending={revoke.isPending}
          error={revoke.error}
          onClose={() => {
            revoke.reset()
            setRevoking(null)
          }}
          onConfirm={() =>
            revoke.mutate(revoking.id, {
              onSuccess: () => {
                toast.success(`API key “${revoking.name}” revoked`)
                setRevoking(null)
              },
              onError: (error) => toast.error(errorMessage(error)),
            })
          }
        >
          <p>
            Requests with <code>{revoking.prefix}…</code> will be refused with 401 within a few seconds. This
            cannot be undone: integrations using it stop working until they get a new key.
          </p>
        </ConfirmDialog>
      )}
    </ListPage>
  )
}
