// The PostgreSQL side of the fast path: each pooled client is patched once, when the pool connects
// it, so that a transaction's statements share round trips (see preparedClient).
import type pg from 'pg'
import { CACHED_PLAN_CHANGED, statementName, statements } from './statements.js'

type ClientQuery = (...args: unknown[]) => Promise<unknown>

/** "current transaction is aborted, commands ignored until end of transaction block" */
const TRANSACTION_ABORTED = '25P02'
/** What a deferred statement answers at once: nobody reads it (fastPath.deferrableWrite). */
const DEFERRED_RESULT = Object.freeze({ command: 'DEFERRED', rowCount: 0, rows: Object.freeze([]) })

/**
 * Patches a pooled PostgreSQL client (once, when the pool connects it; the pool runs its clients in
 * pg's pipeline mode) for a transaction's round trips:
 * - The text of a fast-path statement runs as a named prepared statement even when it comes through
 *   Kysely, as in a transaction: PostgreSQL parses and plans it once per connection, not per request.
 * - Kysely's `begin` is sent and answered at once, so the transaction's first statement travels
 *   with it; a deferrable write (fastPath.deferrableWrite: its caller reads no result) is sent and
 *   answered at once too, so a write's last statements travel with its `commit`. Statements still
 *   run in order on the connection. A deferred statement's error is thrown in place of whatever the
 *   transaction runs next (PostgreSQL refuses everything after it), or by the commit — which
 *   PostgreSQL then turns into a rollback — so a write that failed is never reported as done.
 * - Whatever is sent in one turn of the event loop leaves in one socket write.
 * Anything else (other texts, query configs, the pool's callback calls) goes through unchanged.
 */
export function preparedClient(client: pg.PoolClient): void {
  const query = client.query.bind(client) as unknown as ClientQuery
  const stream = (client as unknown as { connection?: { stream?: NodeJS.WritableStream & Corkable } })
    .connection?.stream
  let inTransaction = false
  let deferred: Promise<void>[] = []
  let failure: { error: unknown } | undefined
  let corked = false

  const oneWrite = () => {
    if (corked || !stream?.cork) return
    corked = true
    stream.cork()
    process.nextTick(() => {
      corked = false
      stream.uncork()
    })
  }
  const send = (text: string, values: unknown): Promise<unknown> => {
    const name = statements.namedTexts.get(text)
    if (name === undefined) return query(text, values)
    return query({ name: statementName(name), text, values }).catch((error: unknown) => {
      // See run.ts: a migration changed a table the statement reads. This transaction fails
      // (it cannot be replayed from here); later ones prepare the statement afresh.
      if ((error as { code?: string }).code === CACHED_PLAN_CHANGED) statements.generation += 1
      throw error
    })
  }
  const defer = (sent: Promise<unknown>): Promise<unknown> => {
    deferred.push(
      sent.then(
        () => {},
        (error: unknown) => {
          failure ??= { error }
        },
      ),
    )
    return Promise.resolve(DEFERRED_RESULT)
  }
  /** Waits for every deferred statement; the first one's error if any failed. */
  const settle = async (): Promise<{ error: unknown } | undefined> => {
    await Promise.all(deferred)
    return failure
  }
  const end = () => {
    inTransaction = false
    deferred = []
    failure = undefined
  }

  const patched: ClientQuery = (...args) => {
    const [text, values] = args
    if (args.length !== 2 || typeof text !== 'string') return query(...args)
    if (text === 'begin') {
      end()
      inTransaction = true
      oneWrite()
      return defer(query(text, values))
    }
    if (!inTransaction) return send(text, values)
    if (text === 'commit' || text === 'rollback') {
      const done = send(text, values)
      // Its answer comes after every deferred one's; awaited below, never left unhandled meanwhile.
      done.catch(() => {})
      return settle().then(async (failed) => {
        end()
        const result = await done
        if (failed && text === 'commit') throw failed.error
        return result
      })
    }
    if (statements.deferrableTexts.has(text)) {
      oneWrite()
      return defer(send(text, values))
    }
    return send(text, values).catch(async (error: unknown) => {
      const failed = (error as { code?: string }).code === TRANSACTION_ABORTED ? await settle() : undefined
      throw failed ? failed.error : error
    })
  }
  client.query = patched as unknown as typeof client.query
}

interface Corkable {
  cork?(): void
  uncork(): void
}
