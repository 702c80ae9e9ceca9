// The web dashboard (web/, built into dist/web by `npm run build`), served at `/`.
//
// Hashed build assets under /assets/ are cached for a year (a new build has new names); index.html
// is never cached, so a deploy reaches every browser on its next navigation. Any other GET that is
// not the API and does not name a file gets index.html (the SPA routes it: /jobs,
// /settings/api-keys …). The API keeps its JSON 404s: nothing that reads as /v1 is ever answered
// with HTML — not /V1/…, //v1/…, /v1%2f…, /./v1/…, /v1;/…, /my/../v1/… or /v1x either, which a proxy,
// a client library or a typo may produce (apiLookalike below).
// The technician app's PWA files sit at the root: /sw.js and /manifest.webmanifest are never cached
// (a service worker must be re-checked on every visit, or a phone keeps an old one for a day), the
// icons under /icons/ for a day. Source maps are never served, even if a build made some: they hold
// the dashboard's whole source.
// Without a build (tests that do not build it, a checkout before `npm run build:web`) nothing is
// installed and the caller serves the landing page instead (landing-page.ts).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** `<repository>/dist/web`, from src/http/ (tsx) and from dist/http/ (built) alike. */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../dist/web', import.meta.url))

/** A last path segment with an extension names a file: a missing one is a 404, not the SPA. */
const FILE_PATH = /\/[^/]*\.[^/]*$/
/** A source map (`x.js.map`, `x.css.map`): never served. */
const SOURCE_MAP = /\.map$/
/** Root files of the build served as they are (content types by extension: JavaScript, manifest+json). */
const ROOT_FILES = ['/sw.js', '/manifest.webmanifest']

export interface DashboardOptions {
  /** The built SPA (index.html + assets/): DEFAULT_DASHBOARD_DIR for the server. */
  dir: string
}

/** Serves the built dashboard at `/`; false (nothing installed) when there is no build. */
export async function installDashboard(app: FastifyInstance, { dir }: DashboardOptions): Promise<boolean> {
  if (!existsSync(join(dir, 'index.html'))) return false
  // Encapsulated, so reply.sendFile stays local to these routes (the playgrounds bring their own).
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: join(dir, 'assets'),
      prefix: '/assets/',
      index: false,
      maxAge: '365d',
      immutable: true,
      allowedPath: (path) => !SOURCE_MAP.test(path),
      // The build's .br and .gz beside each text file (web/build/precompress.ts), by Accept-Encoding;
      // reply.sendFile (index.html, sw.js) uses them too.
      preCompressed: true,
    })
    if (existsSync(join(dir, 'icons'))) {
      await scope.register(fastifyStatic, {
        root: join(dir, 'icons'),
        prefix: '/icons/',
        index: false,
        maxAge: '1d',
        decorateReply: false,
      })
    }
    for (const path of ROOT_FILES) {
      if (!existsSync(join(dir, path))) continue
      scope.get(path, { schema: { hide: true } }, (_request, reply) =>
        reply.header('cache-control', 'no-cache').sendFile(path.slice(1), dir, { cacheControl: false }),
      )
    }
    scope.get('/*', { config: { spaFallback: true }, schema: { hide: true } }, (request, reply) =>
      serveApp(request, reply, dir),
    )
  })
  return true
}

/**
 * Whether a path no route took would be the API's once normalised the ways a proxy or a client
 * might: percent-escapes decoded (a bad one counts as the API's: no page of the app has one), `\` as
 * `/`, repeated slashes collapsed, `.` and `..` resolved, `;params` dropped, letters compared in
 * lower case — and then it starts with /v1 (/v1x and /v1.json too). Only the SPA fallback asks,
 * never a routed request.
 */
export function apiLookalike(path: string): boolean {
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return true
  }
  const segments: string[] = []
  for (const raw of decoded.split(/[/\\]/)) {
    const segment = raw.split(';', 1)[0] as string
    if (segment === '' || segment === '.') continue
    if (segment === '..') segments.pop()
    else segments.push(segment)
  }
  return segments.length > 0 && (segments[0] as string).toLowerCase().startsWith('v1')
}

function serveApp(request: FastifyRequest, reply: FastifyReply, dir: string) {
  const path = request.url.split('?')[0] ?? '/'
  if (FILE_PATH.test(path) || apiLookalike(path)) return reply.callNotFound()
  reply.header('cache-control', 'no-cache')
  return reply.sendFile('index.html', dir, { cacheControl: false })
}
