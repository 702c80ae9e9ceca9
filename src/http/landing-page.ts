// GET / when the web dashboard has not been built (dashboard.ts serves it otherwise): a small page
// that says how to build it and points people at the two playgrounds.
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { freeze, REVALIDATE, sendFrozen } from './frozen-response.js'
import { ADMIN_PREFIX, PUBLIC_PREFIX } from './openapi.js'

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}'

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fieldservice</title>
<style>${STYLE}</style>
</head>
<body>
<h1>fieldservice</h1>
<p>Field-service management over a REST API: jobs, customers, depots, vehicles and shifts.</p>
<p>The web dashboard is served here once it is built: run <code>npm run build:web</code> (or
<code>npm run build</code>) and reload.</p>
<ul>
<li><a href="${PUBLIC_PREFIX}/docs/">Public API playground</a>
(<a href="${PUBLIC_PREFIX}/openapi.json">OpenAPI document</a>): integrations with read and write keys</li>
<li><a href="${ADMIN_PREFIX}/docs/">Admin API playground</a>
(<a href="${ADMIN_PREFIX}/openapi.json">OpenAPI document</a>): everything the dashboard does, for admin keys</li>
</ul>
</body>
</html>
`

/** Nothing but the one inline style may run or load: no script at all. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

export function installLandingPage(app: FastifyInstance): void {
  const landing = freeze(PAGE, 'text/html; charset=utf-8', REVALIDATE, {
    'content-security-policy': CONTENT_SECURITY_POLICY,
  })
  app.get('/', { schema: { hide: true } }, (request, reply) => sendFrozen(request, reply, landing))
}
