// Request bodies that are optional or not taken at all, decided once for every route:
// - Routes whose whole body is optional (lifecycle actions, key rotation) say so with
//   `config: { optionalBody: true }`: a request without a body is validated as `{}`, so defaults
//   apply and unknown fields are still refused, and the OpenAPI document marks the body as not required.
// - A POST, PUT, PATCH or DELETE without a body schema takes no body: none or `{}` is fine (clients
//   often send `{}` out of habit), anything else is a 400 before the handler runs, so nothing a
//   client meant to say is silently ignored. Such routes are marked `config: { takesNoBody: true }`;
//   the JSON parser then checks their bytes for blank or `{}` without parsing them (json-body.ts).
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { validationError } from './errors.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request body may be omitted entirely; it is then validated as `{}`. */
    optionalBody?: boolean
    /** Set for every write route without a body schema: any body other than none or `{}` is a 400. */
    takesNoBody?: boolean
  }
}

const defaultToEmptyBody = async (request: FastifyRequest) => {
  request.body ??= {}
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

const NO_BODY_MESSAGE = 'must be absent or {} (this operation takes no body)'
const NO_BODY_DESCRIPTION = `Takes no request body: send none or \`{}\`; any other body is refused with 400 VALIDATION_ERROR and nothing is done.`

const isEmptyObject = (body: unknown) =>
  body !== null &&
  typeof body === 'object' &&
  !Array.isArray(body) &&
  Object.getPrototypeOf(body) === Object.prototype &&
  Object.keys(body).length === 0

/** What a body-less operation answers to any body but none or `{}` (the JSON parser checks it first). */
export const noBodyError = () => validationError('/body', NO_BODY_MESSAGE)

const refuseBody = async (request: FastifyRequest) => {
  if (request.body !== undefined && !isEmptyObject(request.body)) throw noBodyError()
}

function prepend(route: RouteOptions, hook: (request: FastifyRequest) => Promise<void>): void {
  const existing = route.preValidation
  route.preValidation = existing ? [hook, ...(Array.isArray(existing) ? existing : [existing])] : [hook]
}

/** Register before any route: adds the body rule each route needs. */
export function installOptionalBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.optionalBody) {
      prepend(route, defaultToEmptyBody)
      return
    }
    // A raw-body route (http/raw-body.ts) reads its body itself.
    if (route.config?.rawBody) return
    const methods = ([] as string[]).concat(route.method)
    if (route.schema?.body || !methods.some((method) => WRITE_METHODS.has(method))) return
    route.config = { ...route.config, takesNoBody: true }
    prepend(route, refuseBody)
    if (route.schema) {
      const { description } = route.schema as { description?: string }
      route.schema = {
        ...route.schema,
        description: description ? `${description}\n\n${NO_BODY_DESCRIPTION}` : NO_BODY_DESCRIPTION,
      }
    }
  })
}
