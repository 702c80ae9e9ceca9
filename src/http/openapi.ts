// The public OpenAPI 3.1 document is generated from the same TypeBox schemas that validate requests
// and serialize responses, so it cannot drift from the code.
import swagger from '@fastify/swagger'
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { documentedResponses, finishDocument } from './openapi-document.js'

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
\`RATE_LIMITED\` with \`Retry-After\`. The same figures also come as \`RateLimit-Policy\` and
\`RateLimit\`, in the syntax of the IETF draft draft-ietf-httpapi-ratelimit-headers (a draft: they
follow it if it changes; the \`X-RateLimit-*\` headers are the stable ones).

**Retries.** Send \`Idempotency-Key\` (1–255 printable ASCII characters, a new UUID per operation) with
a POST, PUT or PATCH, and retry with the same key until you get an answer: for 24 hours the same key,
method, path and body get the first answer again, with \`Idempotent-Replayed: true\`, and nothing is
done twice, even if the service crashed between doing it and answering. A key is the caller's own (the
API key, or the signed-in user): the same value sent by another is another key. The same key with another
request is 422 \`IDEMPOTENCY_KEY_REUSED\`; while the first is still running, 409
\`IDEMPOTENCY_KEY_IN_USE\`. Requests refused before they ran (400 validation, 401, 403, 429) and 5xx
answers are not kept: retry them with the same key.

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
shifts, tags and capacity dimensions, jobs and customers (the public API's routes, here too), job tags
and demands, the dispatch lifecycle (assign, unassign, start, complete, cancel), form submissions on
jobs, route plans, API keys, and webhook automations with their signing secrets, execution logs and
redelivery.

**Authentication.** Send \`Authorization: Bearer svc_live_…\` with a key that has the \`admin\` scope;
other keys get 403 \`FORBIDDEN\`. Envelope, errors, validation, pagination, rate limits and retries
(\`Idempotency-Key\`) are those of the public API (\`/v1/public/docs\`).

**Dashboard sessions.** The dashboard signs in with an email and password (\`POST /session\`), which
sets the httpOnly cookie \`fs_session\`; requests that send it (and no Authorization header) act as that
user. Every POST, PUT, PATCH and DELETE of a session must also send its \`csrfToken\` as the header
\`X-CSRF-Token\` (else 403 \`CSRF_INVALID\`, nothing done). An ADMIN may do everything; a DISPATCHER
everything but API keys, automations and their executions, changing the organisation and changing the
team (403 \`FORBIDDEN\`). On the FREE and STARTER plans a session works too, except for API keys,
automations and executions (403 \`PLAN_UPGRADE_REQUIRED\`). A session ends after
\`SESSION_IDLE_MINUTES\` without a request, \`SESSION_MAX_HOURS\` after sign-in, at sign-out, and when
its user's password changes or the user is deactivated or made a WORKER. Requests of one user's
sessions share one rate limit (\`SESSION_RATE_LIMIT_PER_MINUTE\`).

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

/** JOB_COMPLETED → webhookJobCompleted: camelCase, like every operationId. */
const webhookOperationId = (event: string) =>
  `webhook${event
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}`

/** The events webhooks deliver, each with its description and payload schema (the events module's). */
export interface WebhookEvents<Event extends string = string> {
  types: readonly Event[]
  descriptions: Readonly<Record<Event, string>>
  payloads: Readonly<Record<Event, unknown>>
}

/** OpenAPI 3.1 `webhooks`: what receivers of each event get, from the schemas that type the events. */
function webhooks(events: WebhookEvents) {
  return Object.fromEntries(
    events.types.map((event) => [
      event,
      {
        post: {
          summary: event,
          description: `${events.descriptions[event]}\n\n${WEBHOOK_DELIVERY}`,
          operationId: webhookOperationId(event),
          parameters: SIGNATURE_HEADERS,
          // A plain JSON copy: the document must not share (or expose) TypeBox's schema objects.
          requestBody: {
            required: true,
            content: { 'application/json': { schema: JSON.parse(JSON.stringify(events.payloads[event])) } },
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
  /** The admin API also takes the dashboard's session cookie. */
  sessions?: boolean
  events: WebhookEvents
}

const BEARER_AUTH = { type: 'http', scheme: 'bearer', description: 'An API key: svc_live_…' } as const
const COOKIE_AUTH = {
  type: 'apiKey',
  in: 'cookie',
  name: 'fs_session',
  description:
    'The dashboard session cookie set by POST /session. Requests that change something also need the ' +
    "session's csrfToken in the X-CSRF-Token header.",
} as const

interface OpenApiOperation {
  requestBody?: { required?: boolean; content?: Record<string, unknown> }
}

const operationKey = (method: string | string[], path: string) =>
  `${String(method).toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`

/**
 * The admin document also holds the public API's read routes (registered under both prefixes, one
 * schema): there they are named admin<OperationId>, so every operationId is unique across both
 * documents and a client generated from both has no clash.
 */
function documentedOperationId(
  app: FastifyInstance,
  prefix: string,
  method: string | string[],
  url: string,
  operationId: string | undefined,
): string | undefined {
  if (prefix !== ADMIN_PREFIX || !operationId) return operationId
  const publicUrl = `${PUBLIC_PREFIX}${url.slice(prefix.length)}`
  const shared = [method].flat().some((m) => app.hasRoute({ method: m as HTTPMethods, url: publicUrl }))
  return shared ? `admin${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}` : operationId
}

async function registerDocument(app: FastifyInstance, options: DocumentOptions): Promise<void> {
  const optionalBodies = new Set<string>()
  // Raw-body routes (http/raw-body.ts) have no body schema: their body is documented as bytes.
  const rawBodies = new Map<string, readonly string[]>()
  await app.register(swagger, {
    decorator: options.decorator,
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, version: '1.0.0', description: options.description },
      servers: [{ url: options.prefix }],
      tags: options.tags,
      webhooks: webhooks(options.events),
      components: {
        securitySchemes: options.sessions
          ? { bearerAuth: BEARER_AUTH, cookieAuth: COOKIE_AUTH }
          : { bearerAuth: BEARER_AUTH },
      },
      security: options.sessions ? [{ bearerAuth: [] }, { cookieAuth: [] }] : [{ bearerAuth: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}`,
    },
    transform: ({ schema, url, route }) => {
      // Each document holds the routes under its own prefix only.
      if (!url.startsWith(`${options.prefix}/`)) return { schema: { ...schema, hide: true }, url }
      if (route.config?.optionalBody)
        optionalBodies.add(operationKey(route.method, url.slice(options.prefix.length)))
      if (route.config?.rawBody)
        rawBodies.set(operationKey(route.method, url.slice(options.prefix.length)), route.config.rawBody)
      const response = documentedResponses(schema.response as Record<string, unknown> | undefined)
      const operationId = documentedOperationId(app, options.prefix, route.method, url, schema.operationId)
      return { schema: withOptionalDefaults({ ...schema, operationId, response }), url }
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
          const raw = rawBodies.get(operationKey(method, path))
          if (raw) {
            const bytes = { schema: { type: 'string', format: 'binary' } }
            operation.requestBody = {
              required: true,
              content: Object.fromEntries(raw.map((type) => [type, bytes])),
            }
          }
        }
      }
      return finishDocument(openapiObject)
    },
  })
}

/**
 * Both documents collect routes as they are added: register them before any route. Both also
 * describe the webhooks `events` deliver.
 */
export async function installOpenApi<Event extends string>(
  app: FastifyInstance,
  events: WebhookEvents<Event>,
): Promise<void> {
  await registerDocument(app, {
    events,
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
      {
        name: 'Attachments',
        description:
          'Photos, signatures and files attached to jobs (read-only): the proof of the work, for your archive',
      },
      {
        name: 'Events',
        description:
          'The event feed: every event of the last 30 days, with deletions (an addition to the spec)',
      },
    ],
  })
  await registerDocument(app, {
    events,
    decorator: 'adminSwagger',
    prefix: ADMIN_PREFIX,
    title: 'fieldservice admin API',
    description: ADMIN_DESCRIPTION,
    sessions: true,
    tags: [
      { name: 'Session', description: 'Dashboard sign-in with email and password' },
      { name: 'Organisation', description: 'Your organisation and its plan' },
      { name: 'Team', description: 'Workers and dispatchers' },
      { name: 'Tags', description: 'Labels for vehicles and jobs' },
      { name: 'Capacity dimensions', description: 'What vehicles carry and jobs need' },
      { name: 'Locations', description: 'Depots and hubs' },
      { name: 'Vehicles', description: 'Fleet' },
      { name: 'Shifts', description: 'Weekly shift templates with breaks' },
      { name: 'Jobs', description: "The public API's job routes, for the dashboard" },
      { name: 'Customers', description: "The public API's customer routes, for the dashboard" },
      { name: 'Search', description: 'One search across jobs and customers (the dashboard header)' },
      {
        name: 'Address lookup',
        description:
          "Addresses to coordinates through the service's geocoder (GEOCODER_URL), for the dialogs",
      },
      { name: 'Dispatch', description: 'Job tags, demands and the job lifecycle' },
      {
        name: 'Job series',
        description:
          'Recurring jobs: a job template and an RFC 5545 rule whose occurrences become ordinary jobs a few weeks ahead',
      },
      {
        name: 'Attachments',
        description:
          'Photos, signatures and files on jobs: uploaded as raw bytes (sniffed, capped, within the ' +
          "organisation's quota), listed, read and deleted",
      },
      {
        name: 'Imports',
        description:
          'CSV imports of customers and jobs: upsert by externalId, a dry run to preview, progress to poll',
      },
      {
        name: 'Forms',
        description:
          'Form templates (what workers fill in, and which jobs need it) and submissions on jobs (each sends FORM_SUBMITTED)',
      },
      {
        name: 'My day',
        description:
          "The signed-in worker's own jobs: the day in visiting order, start, complete, fill in forms, " +
          'send the device position while on shift',
      },
      {
        name: 'Live day',
        description:
          'Where every worker is and when each remaining stop will be reached: ETAs and late risk, ' +
          'predicted from now (positions sent by My day, the job under way, the travel model, windows, breaks)',
      },
      { name: 'API keys', description: 'Keys for integrations' },
      {
        name: 'Automations',
        description: 'Webhook automations, their signing secrets, execution logs and redelivery',
      },
      {
        name: 'Route plans',
        description: 'The route optimiser: plan a day onto shifts and vehicles, follow it, apply it',
      },
    ],
  })
}

declare module 'fastify' {
  interface FastifyInstance {
    adminSwagger: FastifyInstance['swagger']
  }
}
