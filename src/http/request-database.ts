// The one place the request view of the database is made (db/ambient-transaction.ts): every request
// is handled in a request scope, and the route modules are given a view of the database that follows
// an idempotent request's transaction inside that scope and refuses to work outside any request.
import { AsyncResource } from 'node:async_hooks'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { ambientDatabase, runInRequestScope } from '../db/ambient-transaction.js'
import type { Database } from '../db/types.js'

const REQUEST_SCOPE = Symbol('requestScope')

type ScopedRequest = FastifyRequest & { [REQUEST_SCOPE]?: AsyncResource }

/**
 * Opens a request scope for every request of `app` and returns the view of `db` for its route
 * modules. Register it before any hook that may use the view. The scope is entered when the request
 * arrives and entered again before validation: the body is read from the socket's events, which run
 * outside it, and the handler runs after that. Callback-style hooks: an async hook costs a promise
 * on every request.
 */
export function installRequestDatabase(app: FastifyInstance, db: Kysely<Database>): Kysely<Database> {
  app.addHook('onRequest', (request, _reply, done) => {
    runInRequestScope(() => {
      ;(request as ScopedRequest)[REQUEST_SCOPE] = new AsyncResource('fieldservice.request')
      done()
    })
  })
  app.addHook('preValidation', (request, _reply, done) => {
    const scope = (request as ScopedRequest)[REQUEST_SCOPE]
    if (scope) scope.runInAsyncScope(done)
    else done()
  })
  return ambientDatabase(db)
}
