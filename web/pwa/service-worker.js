// The service worker of the technician's app (/my): keeps the app and the day's jobs on the phone for
// dead zones. Registered by the /my area only, with scope /my, so the dashboard never runs through it.
//
// - The app shell (index.html and the build's files) is cached when the worker installs; the build
//   writes their list and a build id into this file (web/pwa/service-worker-plugin.ts), so each
//   deploy installs a new worker that caches the new build and drops the old one.
// - Pages under /my: network first (a deploy reaches the phone), else the cached index.html.
// - /assets/*: cache first (their names are content hashes), fetched and kept when missing.
// - GET /v1/admin/my/jobs… and GET /v1/admin/session: network first; a 200 is kept, and when the
//   network fails the last one kept is answered, so a reload in a dead zone still shows the day. A
//   job never opened online (GET /v1/admin/my/jobs/:id with nothing kept) is answered from a day kept
//   that lists it: the day's list carries everything the job's page and its forms show.
//   Signing out (DELETE /v1/admin/session) or a 401 drops what was kept.
//   A read made with cache: 'no-store' is never answered from what was kept.
// - Everything else (every write) goes to the network untouched: the app queues writes itself.
// Plain JavaScript: it runs as written (no bundling), in a scope without the DOM.

const BUILD = self.__FIELDSERVICE_BUILD__ ?? { id: 'dev', files: [] }
const SHELL_CACHE = `fieldservice-shell-${BUILD.id}`
const DATA_CACHE = 'fieldservice-my-data'
const INDEX = '/index.html'
const DATA_PATHS = [/^\/v1\/admin\/my\/jobs(\/|$)/, /^\/v1\/admin\/session$/]

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE)
      // index.html is what every page of the app answers (the server 404s the file's own name).
      const index = await fetch('/my', { cache: 'no-cache' })
      if (!index.ok) throw new Error(`/my answered ${index.status}`)
      await cache.put(INDEX, index)
      await cache.addAll(BUILD.files.map((file) => `/${file}`))
      await self.skipWaiting()
    })(),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('fieldservice-shell-') && name !== SHELL_CACHE) await caches.delete(name)
      }
      await self.clients.claim()
    })(),
  )
})

self.addEventListener('fetch', (event) => {
  const request = event.request
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (request.method === 'DELETE' && url.pathname === '/v1/admin/session') {
    event.respondWith(signOut(request))
    return
  }
  if (request.method !== 'GET') return
  if (request.mode === 'navigate') event.respondWith(page(request))
  else if (url.pathname.startsWith('/assets/')) event.respondWith(asset(request))
  // A read that asks for no stored answer (cache: 'no-store') wants the server's own: the app asks so
  // when a kept copy would mislead (why the server just refused an action). It goes to the network.
  else if (request.cache === 'no-store') return
  else if (DATA_PATHS.some((path) => path.test(url.pathname))) event.respondWith(data(request))
})

async function page(request) {
  const cache = await caches.open(SHELL_CACHE)
  try {
    const response = await fetch(request)
    if (response.ok) await cache.put(INDEX, response.clone())
    return response
  } catch (error) {
    const cached = await cache.match(INDEX)
    if (cached) return cached
    throw error
  }
}

async function asset(request) {
  const cache = await caches.open(SHELL_CACHE)
  const cached = await cache.match(request)
  if (cached) return cached
  const response = await fetch(request)
  if (response.ok) await cache.put(request, response.clone())
  return response
}

async function data(request) {
  const cache = await caches.open(DATA_CACHE)
  let response
  try {
    response = await fetch(request)
  } catch (error) {
    const cached = (await cache.match(request)) ?? (await jobFromKeptDays(cache, request))
    if (cached) return cached
    throw error
  }
  if (response.status === 200) await cache.put(request, response.clone())
  else if (response.status === 401) await caches.delete(DATA_CACHE)
  else if (response.status === 404) await cache.delete(request)
  return response
}

const ONE_JOB = /^\/v1\/admin\/my\/jobs\/([^/]+)$/
const DAY_LIST = '/v1/admin/my/jobs'

/** GET /my/jobs/:id answered as the server would, from a kept day that lists the job; or null. */
async function jobFromKeptDays(cache, request) {
  const id = ONE_JOB.exec(new URL(request.url).pathname)?.[1]
  if (!id) return null
  for (const kept of await cache.keys()) {
    if (new URL(kept.url).pathname !== DAY_LIST) continue
    const day = await (await cache.match(kept))?.json().catch(() => null)
    const job = day?.data?.jobs?.find((entry) => entry.id === decodeURIComponent(id))
    if (!job) continue
    return new Response(JSON.stringify({ data: { job }, message: day.message }), {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
  }
  return null
}

async function signOut(request) {
  await caches.delete(DATA_CACHE)
  return fetch(request)
}
