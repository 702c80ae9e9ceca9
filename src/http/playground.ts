// The OpenAPI documents and the two interactive playgrounds (swagger-ui), served without a key from
// bytes built once: the documents when the app is ready (every route is known then), swagger-ui's
// own assets (from the @fastify/swagger-ui package, so no CDN) once per process. Each answer has a
// strong ETag (304 on If-None-Match) and a Cache-Control; none costs more than a lookup.
//
//   {prefix}/openapi.json, {prefix}/docs/json   the document (JSON)
//   {prefix}/docs/yaml                          the document (YAML: built at its first request, as
//                                               writing YAML takes ~150 ms of CPU, too long to add
//                                               to every start for a form few clients ask for)
//   {prefix}/docs/                              the playground page ({prefix}/docs redirects there)
//   {prefix}/docs/static/…                      swagger-ui's assets, the page's start-up script and
//                                               the script that keeps the playground's stored
//                                               authorisation apart from the other playground's
import { readdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, extname, join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from './errors.js'
import { type FrozenResponse, freeze, KEEP_AN_HOUR, REVALIDATE, sendFrozen } from './frozen-response.js'
import { ADMIN_PREFIX, PUBLIC_PREFIX } from './openapi.js'

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
}
/** swagger-ui's own page and its CSP hints: the playground page is ours. */
const UNUSED_ASSETS = new Set(['index.html', 'csp.json'])

let swaggerUiAssets: Promise<Map<string, FrozenResponse>> | undefined

/** swagger-ui's static files, read once per process and shared by every app and both playgrounds. */
function readSwaggerUiAssets(): Promise<Map<string, FrozenResponse>> {
  swaggerUiAssets ??= (async () => {
    const require = createRequire(import.meta.url)
    const dir = join(dirname(require.resolve('@fastify/swagger-ui/package.json')), 'static')
    const names = (await readdir(dir)).filter(
      (name) => !UNUSED_ASSETS.has(name) && CONTENT_TYPES[extname(name)],
    )
    const files = await Promise.all(
      names.map(async (name) => [name, await readFile(join(dir, name))] as const),
    )
    return new Map(
      files.map(([name, bytes]) => [
        name,
        freeze(bytes, CONTENT_TYPES[extname(name)] as string, KEEP_AN_HOUR),
      ]),
    )
  })()
  return swaggerUiAssets
}

const UI_CONFIG = {
  persistAuthorization: true,
  displayRequestDuration: true,
  tryItOutEnabled: true,
  deepLinking: true,
  validatorUrl: null,
}

/**
 * swagger-ui persists authorisations in localStorage under one key, `authorized`, shared by every
 * page of the origin: a public key pasted in one playground showed as authorised in the other. This
 * script, loaded before swagger-ui starts, gives each playground a key of its own, and drops what
 * the shared key still holds from before.
 */
export function authorizationScopeScript(prefix: string): string {
  const scoped = JSON.stringify(`fieldservice:${prefix}:authorized`)
  return `(function () {
  var proto = Storage.prototype
  var getItem = proto.getItem, setItem = proto.setItem, removeItem = proto.removeItem
  var scope = function (name) { return name === 'authorized' ? ${scoped} : name }
  try { removeItem.call(window.localStorage, 'authorized') } catch (e) {}
  proto.getItem = function (name) { return getItem.call(this, scope(name)) }
  proto.setItem = function (name, value) { return setItem.call(this, scope(name), value) }
  proto.removeItem = function (name) { return removeItem.call(this, scope(name)) }
})()
`
}

/** Starts swagger-ui on the document beside the page (`./json`), relative so a path prefix is kept. */
const INITIALIZER = `window.onload = function () {
  var beside = function (path) { return new URL(path, window.location.href).href }
  window.ui = SwaggerUIBundle(Object.assign({
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout'
  }, ${JSON.stringify(UI_CONFIG)}, {
    url: beside('json'),
    oauth2RedirectUrl: beside('static/oauth2-redirect.html')
  }))
}
`

/** The page: relative URLs only (it is served at …/docs/), and no inline script. */
const page = (title: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<title>${title}</title>
<link rel="stylesheet" type="text/css" href="./static/swagger-ui.css">
<link rel="stylesheet" type="text/css" href="./static/index.css">
<link rel="icon" type="image/png" href="./static/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="./static/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="./static/theme/authorization-scope.js" charset="UTF-8"></script>
<script src="./static/swagger-ui-bundle.js" charset="UTF-8"></script>
<script src="./static/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
<script src="./static/swagger-initializer.js" charset="UTF-8"></script>
</body>
</html>
`

function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined
  return () => {
    built ??= { value: build() }
    return built.value
  }
}

interface Playground {
  json: FrozenResponse
  /** Built on first use, then kept. */
  yaml(): FrozenResponse
  page: FrozenResponse
  /** Under static/: swagger-ui's assets and our two scripts. */
  assets: Map<string, FrozenResponse>
}

async function buildPlayground(
  prefix: string,
  document: () => unknown,
  yaml: () => string,
): Promise<Playground> {
  const spec = document() as { info: { title: string } }
  const assets = new Map(await readSwaggerUiAssets())
  const script = (source: string) => freeze(source, CONTENT_TYPES['.js'] as string, REVALIDATE)
  assets.set('swagger-initializer.js', script(INITIALIZER))
  assets.set('theme/authorization-scope.js', script(authorizationScopeScript(prefix)))
  return {
    json: freeze(JSON.stringify(spec), 'application/json; charset=utf-8', REVALIDATE),
    yaml: once(() => freeze(yaml(), 'application/yaml; charset=utf-8', REVALIDATE)),
    page: freeze(page(`${spec.info.title}: playground`), CONTENT_TYPES['.html'] as string, REVALIDATE),
    assets,
  }
}

function installPlayground(app: FastifyInstance, prefix: string, build: () => Promise<Playground>): void {
  let built: Playground | undefined
  app.addHook('onReady', async () => {
    built = await build()
  })
  const ready = () => built as Playground
  const options = { schema: { hide: true } }
  const sendJson = (request: FastifyRequest, reply: FastifyReply) => sendFrozen(request, reply, ready().json)
  app.get(`${prefix}/openapi.json`, options, sendJson)
  app.get(`${prefix}/docs/json`, options, sendJson)
  app.get(`${prefix}/docs/yaml`, options, (request, reply) => sendFrozen(request, reply, ready().yaml()))
  app.get(`${prefix}/docs`, options, (request, reply) => {
    // The page's URLs are relative to …/docs/: send …/docs there (a relative Location keeps any prefix
    // a proxy adds in front of ours).
    if (!request.url.split('?', 1)[0]?.endsWith('/')) return reply.redirect('docs/', 302)
    return sendFrozen(request, reply, ready().page)
  })
  app.get<{ Params: { '*': string } }>(`${prefix}/docs/static/*`, options, (request, reply) => {
    const asset = ready().assets.get(request.params['*'])
    if (!asset) throw new AppError('NOT_FOUND', `${request.url.split('?', 1)[0]} not found`)
    return sendFrozen(request, reply, asset)
  })
}

/** The generated documents and their interactive playgrounds; no key needed to read them. */
export function installDocsRoutes(app: FastifyInstance): void {
  installPlayground(app, PUBLIC_PREFIX, () =>
    buildPlayground(
      PUBLIC_PREFIX,
      () => app.swagger(),
      () => app.swagger({ yaml: true }),
    ),
  )
  installPlayground(app, ADMIN_PREFIX, () =>
    buildPlayground(
      ADMIN_PREFIX,
      () => app.adminSwagger(),
      () => app.adminSwagger({ yaml: true }),
    ),
  )
}
