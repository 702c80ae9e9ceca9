// The public OpenAPI 3.1 document is generated from the same TypeBox schemas that validate requests
// and serialize responses, so it cannot drift from the code.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { EVENT_DESCRIPTIONS, EVENT_PAYLOADS, EVENT_TYPES } from '../modules/events/schemas.js'

export const PUBLIC_PREFIX = '/v1/public'
export const ADMIN_PREFIX = '/v1/admin'

const DESCRIPTION = `Manage jobs and customers, and read depots, vehicles and worker shifts, from your ERP, CRM or
dispatch platform.

**Authentication.** Send \`Authorization: Bearer svc_live_…\` with every request. Keys carry the scopes
\`read\` (GET), \`write\` (POST, PATCH, DELETE) and \`admin\` (everything). API access requires the Pro or
Enterprise plan.

**Envelope.** Successes are \`{ "data": …, "message": "Success" }\`; errors are \`{ "error", "code" }\`
(validation errors add \`details: [{ path, message }]\`).

**Lists** are sorted by \`createdAt\` descending, then \`id\` descending, and take \`page\` (from 1) and
\`limit\` (max 100).

**Rate limits** are per key, per minute; every authenticated response carries \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (seconds), and a request over the limit gets 429
\`RATE_LIMITED\` with \`Retry-After\`.

**Formats.** Datetimes are ISO 8601 in UTC with milliseconds (any offset is accepted on input);
coordinates are JSON numbers in requests and decimal strings in responses; durations are integer
seconds; times of day are \`HH:MM\`.

**Webhooks.** Automations (set up in the dashboard or the admin API) send a signed POST for each
event of their trigger type; the events and their bodies are listed under *Webhooks*.`

interface ObjectSchema {
  properties?: Record<string, { default?: unknown }>
  required?: string[]
}

/**
 * Query parameters with a default (page, limit) are required in the validated type, so handlers
 * always see a value, but a client never has to send them: document them as optional.
 */
function withOptionalDefaults<T extends { querystring?: unknown }>(schema: T): T {
  const query = schema.querystring as ObjectSchema | undefined
  if (!query?.required || !query.properties) return schema
  const properties = query.properties
  const required = query.required.filter((name) => properties[name]?.default === undefined)
  return { ...schema, querystring: { ...query, required } }
}

const ADMIN_DESCRIPTION = `Everything the dashboard does: the organisation and its plan, the team, depots, fleet,
shifts, tags and capacity dimensions, job tags and demands, the dispatch lifecycle (assign, unassign,
start, complete, cancel), form submissions on jobs, API keys, and webhook automations with their
signing secrets, execution logs and redelivery.

**Authentication.** Send \`Authorization: Bearer svc_live_…\` with a key that has the \`admin\` scope;
other keys get 403 \`FORBIDDEN\`. Envelope, errors, validation, pagination and rate limits are those of
the public API (\`/v1/public/docs\`).

**Webhooks.** An automation sends one signed POST to its URL for each event of its trigger type; the
events and their bodies are listed under *Webhooks*.`

const WEBHOOK_DELIVERY = `Sent as one HTTP POST with a JSON body to the URL of every active automation whose
trigger is this event, after the change has committed. A non-2xx answer, or no answer within 10 s, is
recorded as a failure in the automation's execution log and is not retried; it can be redelivered from
the execution log.

**Signature** ([Standard Webhooks](https://www.standardwebhooks.com)): \`webhook-id\` identifies the
delivery and is the same on every redelivery (use it to drop duplicates); \`webhook-timestamp\` is the
sending time in Unix seconds (refuse stale ones); \`webhook-signature\` is \`v1,\` followed by the base64
HMAC-SHA256 of \`<webhook-id>.<webhook-timestamp>.<body>\` (the raw body bytes), keyed with the
base64-decoded part of the automation's \`whsec_…\` secret after the prefix. While a rotated secret is
still valid, two signatures are sent, separated by a space: accept the request when either matches.`

const SIGNATURE_HEADERS = [
  ['webhook-id', 'Delivery id: the same on every redelivery of this delivery'],
  ['webhook-timestamp', 'When this attempt was sent, in Unix seconds'],
  ['webhook-signature', 'v1,<base64 HMAC-SHA256>; two, space-separated, during a secret rotation'],
].map(([name, description]) => ({
  name: name as string,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' as const },
}))

/** OpenAPI 3.1 `webhooks`: what receivers of each event get, from the schemas that type the events. */
function webhooks() {
  return Object.fromEntries(
    EVENT_TYPES.map((event) => [
      event,
      {
        post: {
          summary: event,
          description: `${EVENT_DESCRIPTIONS[event]}\n\n${WEBHOOK_DELIVERY}`,
          operationId: `webhook${event}`,
          parameters: SIGNATURE_HEADERS,
          // A plain JSON copy: the document must not share (or expose) TypeBox's schema objects.
          requestBody: {
            required: true,
            content: { 'application/json': { schema: JSON.parse(JSON.stringify(EVENT_PAYLOADS[event])) } },
          },
          responses: { '2XX': { description: 'Delivered' } },
        },
      },
    ]),
  )
}

interface DocumentOptions {
  decorator: 'swagger' | 'adminSwagger'
  prefix: string
  title: string
  description: string
  tags: { name: string; description: string }[]
}

interface OpenApiOperation {
  requestBody?: { required?: boolean }
}

const operationKey = (method: string | string[], path: string) =>
  `${String(method).toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`

async function registerDocument(app: FastifyInstance, options: DocumentOptions): Promise<void> {
  const optionalBodies = new Set<string>()
  await app.register(swagger, {
    decorator: options.decorator,
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, version: '1.0.0', description: options.description },
      servers: [{ url: options.prefix }],
      tags: options.tags,
      webhooks: webhooks(),
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: svc_live_…' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}`,
    },
    transform: ({ schema, url, route }) => {
      // Each document holds the routes under its own prefix only.
      if (!url.startsWith(`${options.prefix}/`)) return { schema: { ...schema, hide: true }, url }
      if (route.config?.optionalBody)
        optionalBodies.add(operationKey(route.method, url.slice(options.prefix.length)))
      return { schema: withOptionalDefaults(schema), url }
    },
    // @fastify/swagger marks every request body as required; some routes take none.
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject
      const { openapiObject } = document
      for (const [path, operations] of Object.entries(openapiObject.paths ?? {})) {
        for (const [method, operation] of Object.entries(operations as Record<string, OpenApiOperation>)) {
          if (operation.requestBody && optionalBodies.has(operationKey(method, path))) {
            operation.requestBody.required = false
          }
        }
      }
      return openapiObject
    },
  })
}

/** Both documents collect routes as they are added: register them before any route. */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await registerDocument(app, {
    decorator: 'swagger',
    prefix: PUBLIC_PREFIX,
    title: 'fieldservice public API',
    description: DESCRIPTION,
    tags: [
      { name: 'Jobs', description: 'Work to be done at a customer or depot' },
      { name: 'Customers', description: 'Service locations with coordinates and opening hours' },
      { name: 'Vehicles', description: 'Fleet, with depot, costs, tags and capacities (read-only)' },
      { name: 'Locations', description: 'Depots and hubs (read-only)' },
      { name: 'Shifts', description: 'Weekly shift templates with breaks (read-only)' },
    ],
  })
  await registerDocument(app, {
    decorator: 'adminSwagger',
    prefix: ADMIN_PREFIX,
    title: 'fieldservice admin API',
    description: ADMIN_DESCRIPTION,
    tags: [
      { name: 'Organisation', description: 'Your organisation and its plan' },
      { name: 'Team', description: 'Workers and dispatchers' },
      { name: 'Tags', description: 'Labels for vehicles and jobs' },
      { name: 'Capacity dimensions', description: 'What vehicles carry and jobs need' },
      { name: 'Locations', description: 'Depots and hubs' },
      { name: 'Vehicles', description: 'Fleet' },
      { name: 'Shifts', description: 'Weekly shift templates with breaks' },
      { name: 'Dispatch', description: 'Job tags, demands and the job lifecycle' },
      { name: 'Forms', description: 'Form submissions on jobs (each sends FORM_SUBMITTED)' },
      { name: 'API keys', description: 'Keys for integrations' },
      {
        name: 'Automations',
        description: 'Webhook automations, their signing secrets, execution logs and redelivery',
      },
    ],
  })
}

const UI_CONFIG = { persistAuthorization: true, displayRequestDuration: true, tryItOutEnabled: true }

/** The generated documents and their interactive playgrounds; no key needed to read them. */
export async function installDocsRoutes(app: FastifyInstance): Promise<void> {
  app.get(`${PUBLIC_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger())
  app.get(`${ADMIN_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.adminSwagger())
  // swagger-ui decorates its instance: each playground lives in a context of its own, and the admin
  // one serves the admin document in place of the default.
  await app.register(async (docs) => {
    await docs.register(swaggerUi, { routePrefix: `${PUBLIC_PREFIX}/docs`, uiConfig: UI_CONFIG })
  })
  await app.register(async (docs) => {
    await docs.register(swaggerUi, {
      routePrefix: `${ADMIN_PREFIX}/docs`,
      uiConfig: UI_CONFIG,
      transformSpecification: () => app.adminSwagger(),
    })
  })
}

declare module 'fastify' {
  interface FastifyInstance {
    adminSwagger: FastifyInstance['swagger']
  }
}
