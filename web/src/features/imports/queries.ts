// The import's calls: make one (POST /imports), send it its file (PUT …/file, the File as the body:
// the browser streams it), and read its progress (GET /imports/:id) while the file is being read.
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { Schema } from '../../api/types'
import type { ImportKind } from './import-fields'

export type Import = Schema<'Import'>

/** Makes the import, then sends the file; answers the finished import (its rows all read). */
export async function runImport(
  kind: ImportKind,
  mapping: Record<string, string>,
  dryRun: boolean,
  file: File,
  onStarted: (id: string) => void,
): Promise<Import> {
  const created = (await unwrap(api.POST('/imports', { body: { kind, dryRun, mapping } }))).import
  onStarted(created.id)
  const sent = api.PUT('/imports/{id}/file', {
    params: { path: { id: created.id } },
    // The schema types the raw body as unknown; the File goes as it is.
    body: file as unknown as string,
    bodySerializer: (body) => body,
    headers: { 'Content-Type': 'text/csv' },
  })
  return (await unwrap(sent)).import
}

/** An import's progress, read every half second while it runs. */
export function useImportProgress(id: string | null) {
  return useQuery({
    queryKey: ['imports', id],
    queryFn: async () =>
      (await unwrap(api.GET('/imports/{id}', { params: { path: { id: id ?? '' } } }))).import,
    enabled: id !== null,
    refetchInterval: (query) => {
      const status = query.state.data?.status
      return status === 'SUCCEEDED' || status === 'FAILED' ? false : 500
    },
  })
}
