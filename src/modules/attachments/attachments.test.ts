// Attachments on jobs (issue 31 §2) on the default store, the database's chunks, on both dialects:
// the shared cases (attachment-cases.ts), and what only the database store shows.

import { describeAttachmentCases } from '../../../test/attachment-cases.js'
import { DIALECTS } from '../../../test/helpers.js'

for (const dialect of DIALECTS) {
  describeAttachmentCases(`${dialect}, database store`, dialect, async () => ({
    async storedKeys(t) {
      const rows = await t.database.db
        .selectFrom('attachment_chunks')
        .select('content_key')
        .distinct()
        .orderBy('content_key')
        .execute()
      return rows.map((row) => row.content_key)
    },
  }))
}
