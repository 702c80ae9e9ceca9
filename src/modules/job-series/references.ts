// What other modules ask of job series before deleting something a series' template names (a tag, a
// capacity dimension, a depot): kept apart from service.ts, which itself uses those modules, so the
// question can be asked without a loop between them.
import type { Executor } from '../../db/types.js'
import { countLiveSeriesReferring } from './repository.js'

/** How many series still making jobs name `id` in their template (see repository.ts). */
export function countSeriesUsing(db: Executor, organisationId: string, id: string): Promise<number> {
  return countLiveSeriesReferring(db, organisationId, id)
}
