import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from '../../http/route-options.js'

// PLACEHOLDER: being written; replace this whole file.
export const apiKeyAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async () => {}
