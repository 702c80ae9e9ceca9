// Routes whose whole body is optional (lifecycle actions, key rotation) say so with
// `config: { optionalBody: true }`: a request without a body is validated as `{}`, so defaults apply
// and unknown fields are still refused, and the OpenAPI document marks the body as not required.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request body may be omitted entirely; it is then validated as `{}`. */
    optionalBody?: boolean
  }
}

const defaultToEmptyBody = async (request: FastifyRequest) => {
  request.body ??= {}
}

/** Register before any route: adds the empty-body default to every route that asks for it. */
export function installOptionalBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.config?.optionalBody) return
    const existing = route.preValidation
    route.preValidation = existing
      ? [defaultToEmptyBody, ...(Array.isArray(existing) ? existing : [existing])]
      : [defaultToEmptyBody]
  })
}
