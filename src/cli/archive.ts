// `fieldservice export` and `fieldservice import`: an organisation's whole data as one archive
// (docs/archive.md), written to a file or stdout, and restored into an empty organisation.
import { createReadStream, createWriteStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import type { Command } from 'commander'
import type { Config } from '../config.js'
import type { DatabaseHandle } from '../db/database.js'
import { archiveStream } from '../modules/archive/export.js'
import { ArchiveError, importArchive } from '../modules/archive/import.js'
import { DatabaseAttachmentStore } from '../modules/attachments/db-store.js'
import { parseS3StoreUrl, S3AttachmentStore } from '../modules/attachments/s3-store.js'
import type { AttachmentStore } from '../modules/attachments/store.js'
import { findOrganisation, findOrganisationByName } from '../modules/organisations/service.js'
import { withDatabase } from './with-database.js'

type Print = (json: boolean, value: unknown, text: string) => void

/** The store the server uses (ATTACHMENT_STORE), closed when the action ends. */
async function withStore<T>(
  config: Config,
  database: DatabaseHandle,
  action: (store: AttachmentStore) => Promise<T>,
) {
  const store = config.attachmentStore
    ? new S3AttachmentStore(parseS3StoreUrl(config.attachmentStore))
    : new DatabaseAttachmentStore(database.db)
  try {
    return await action(store)
  } finally {
    if (store instanceof S3AttachmentStore) await store.close()
  }
}

/** An organisation by id, or by its exact name (organisations have no other handle). */
async function organisationId(database: DatabaseHandle, reference: string): Promise<string> {
  const organisation =
    (await findOrganisation(database.db, reference)) ?? (await findOrganisationByName(database.db, reference))
  if (!organisation) throw new Error(`No organisation with the id or name "${reference}"`)
  return organisation.id
}

export function addArchiveCommands(program: Command, config: Config, print: Print): void {
  program
    .command('export')
    .description("Write an organisation's whole data as an archive (gzip'd NDJSON, docs/archive.md)")
    .requiredOption('--org <id|name>', 'the organisation, by id or exact name')
    .option('--out <file>', 'where to write it (default: standard output)')
    .action(async (options: { org: string; out?: string }) => {
      await withDatabase(config, async (database) => {
        const id = await organisationId(database, options.org)
        await withStore(config, database, async (store) => {
          const archive = archiveStream(database.db, store, id, new Date().toISOString())
          await pipeline(archive, options.out ? createWriteStream(options.out) : process.stdout, {
            end: options.out !== undefined,
          })
        })
      })
    })

  program
    .command('import')
    .description(
      'Restore an archive (from fieldservice export or GET /v1/admin/export) into an empty organisation',
    )
    .requiredOption('--org <id|name>', 'the organisation to restore into: it must hold no data yet')
    .argument('<file>', 'the archive (.ndjson.gz)')
    .option('--json', 'machine-readable output')
    .action(async (file: string, options: { org: string; json?: boolean }) => {
      const result = await withDatabase(config, async (database) => {
        const id = await organisationId(database, options.org)
        return withStore(config, database, async (store) => {
          try {
            return {
              organisationId: id,
              ...(await importArchive(database.db, store, id, createReadStream(file))),
            }
          } catch (error) {
            // The message says what is wrong with the archive or the target; a stack would not help.
            if (error instanceof ArchiveError) throw new Error(error.message)
            throw error
          }
        })
      })
      const total = Object.values(result.counts).reduce((sum, n) => sum + n, 0)
      print(
        options.json ?? false,
        result,
        `Restored ${total} records (${result.counts.jobs ?? 0} jobs, ${result.counts.customers ?? 0} customers, ` +
          `${result.counts.attachments ?? 0} attachments of ${result.attachmentBytes} bytes) into ${result.organisationId}`,
      )
    })
}
