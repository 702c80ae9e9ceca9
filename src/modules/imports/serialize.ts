import type { ImportRow } from '../../db/types.js'
import type { Import } from './schemas.js'

export function serializeImport(row: ImportRow): Import {
  return {
    id: row.id,
    kind: row.kind,
    dryRun: Number(row.dry_run) === 1,
    mapping: JSON.parse(row.mapping),
    status: row.status,
    processed: Number(row.processed),
    created: Number(row.created),
    updated: Number(row.updated),
    unchanged: Number(row.unchanged),
    failed: Number(row.failed),
    bytesRead: Number(row.bytes_read),
    bytesTotal: row.bytes_total === null ? null : Number(row.bytes_total),
    errors: JSON.parse(row.errors),
    sample: JSON.parse(row.sample),
    failure: row.failure,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  }
}
