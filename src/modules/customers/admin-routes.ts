import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from '../route-options.js'
import { customerRoutes } from './routes.js'

/**
 * The public API's customer routes, registered under the admin API too: the dashboard manages
 * customers through the admin API, the only one a session may use.
 */
export const customerAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  await app.register(customerRoutes, { db })
}
