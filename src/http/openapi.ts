// The public OpenAPI 3.1 document is generated from the same TypeBox schemas that validate requests
// and serialize responses, so it cannot drift from the code.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'

export const PUBLIC_PREFIX = '/v1/public'

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
seconds; times of day are \`HH:MM\`.`

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

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'fieldservice public API', version: '1.0.0', description: DESCRIPTION },
      servers: [{ url: PUBLIC_PREFIX }],
      tags: [
        { name: 'Jobs', description: 'Work to be done at a customer or depot' },
        { name: 'Customers', description: 'Service locations with coordinates and opening hours' },
        { name: 'Vehicles', description: 'Fleet, with depot, costs, tags and capacities (read-only)' },
        { name: 'Locations', description: 'Depots and hubs (read-only)' },
        { name: 'Shifts', description: 'Weekly shift templates with breaks (read-only)' },
      ],
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
    transform: ({ schema, url }) => ({
      // Only the public API belongs in this document.
      schema: url.startsWith(PUBLIC_PREFIX) ? withOptionalDefaults(schema) : { ...schema, hide: true },
      url,
    }),
  })
}

export async function installDocsRoutes(app: FastifyInstance): Promise<void> {
  app.get(`${PUBLIC_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger())
  await app.register(swaggerUi, {
    routePrefix: `${PUBLIC_PREFIX}/docs`,
    uiConfig: { persistAuthorization: true, displayRequestDuration: true, tryItOutEnabled: true },
  })
}
