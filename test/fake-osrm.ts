// A small OSRM on 127.0.0.1 that answers the table service as documented
// (project-osrm.org/docs/v5.24.0/api/#table-service): `GET /table/v1/{profile}/{lng,lat;…}` with
// `annotations=duration,distance` and optional `sources=` / `destinations=` index lists, answering
// `{ code: "Ok", durations, distances, sources, destinations }` with one row per source. Like
// osrm-routed it refuses a table of more than maxTable² cells (400 TooBig). Its "roads" are the
// great circle: distance = haversine × 1.5; duration = distance ÷ 10 m/s, plus 7 s going north (so a
// transposed table is wrong). A place listed in `islands` has no road to or from anywhere (null).
// It can also answer slowly, with an error status, or with a code other than Ok.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeOsrm {
  url: string
  /** The path and query of every table request, in order. */
  requests: string[]
  maxTable: number
  /** Answers after this long (0: at once). */
  delayMs: number
  /** Answer this status (0: the table). */
  failWith: number
  /** Answer 200 with this code and no table ('' : Ok). */
  code: string
  /** `lng,lat` (6 places) of places no road reaches. */
  islands: Set<string>
  close(): Promise<void>
}

const RAD = Math.PI / 180

export function roadMetres(a: [number, number], b: [number, number]): number {
  const [lngA, latA] = a
  const [lngB, latB] = b
  const h =
    Math.sin(((latB - latA) * RAD) / 2) ** 2 +
    Math.cos(latA * RAD) * Math.cos(latB * RAD) * Math.sin(((lngB - lngA) * RAD) / 2) ** 2
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h))) * 1.5
}

/** Seconds from a to b, as the server answers them (one decimal, as OSRM's). */
export function roadSeconds(a: [number, number], b: [number, number]): number {
  if (a[0] === b[0] && a[1] === b[1]) return 0
  return Math.round((roadMetres(a, b) / 10 + (b[1] > a[1] ? 7 : 0)) * 10) / 10
}

const indices = (raw: string | null, count: number) =>
  raw === null || raw === 'all' ? Array.from({ length: count }, (_, i) => i) : raw.split(';').map(Number)

export async function startFakeOsrm(maxTable = 100): Promise<FakeOsrm> {
  const fake: Omit<FakeOsrm, 'url' | 'close'> = {
    requests: [],
    maxTable,
    delayMs: 0,
    failWith: 0,
    code: '',
    islands: new Set(),
  }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const match = /^\/table\/v1\/[a-z]+\/(.+)$/.exec(url.pathname)
    if (!match) return answer(400, { code: 'InvalidUrl', message: 'URL string malformed' })
    fake.requests.push(`${url.pathname}${url.search}`)
    const coordinates = decodeURIComponent(match[1] as string)
      .split(';')
      .map((pair) => pair.split(',').map(Number) as [number, number])
    const sources = indices(url.searchParams.get('sources'), coordinates.length)
    const destinations = indices(url.searchParams.get('destinations'), coordinates.length)
    const reply = () => {
      if (fake.failWith)
        return answer(fake.failWith, { code: 'InternalError', message: 'down for maintenance' })
      if (fake.code) return answer(200, { code: fake.code, message: 'Could not find a matching segment' })
      if (url.searchParams.get('annotations') !== 'duration,distance')
        return answer(400, { code: 'InvalidOptions', message: 'annotations expected' })
      if (sources.length * destinations.length > fake.maxTable ** 2)
        return answer(400, { code: 'TooBig', message: 'Too many table coordinates' })
      const island = (i: number) => fake.islands.has(coordinates[i]!.map((x) => x.toFixed(6)).join(','))
      const cell = (from: number, to: number, value: (a: [number, number], b: [number, number]) => number) =>
        from !== to && (island(from) || island(to)) ? null : value(coordinates[from]!, coordinates[to]!)
      answer(200, {
        code: 'Ok',
        durations: sources.map((s) => destinations.map((d) => cell(s, d, roadSeconds))),
        distances: sources.map((s) =>
          destinations.map((d) => cell(s, d, (a, b) => Math.round(roadMetres(a, b) * 10) / 10)),
        ),
        sources: sources.map((s) => ({ location: coordinates[s], name: '', distance: 0 })),
        destinations: destinations.map((d) => ({ location: coordinates[d], name: '', distance: 0 })),
      })
    }
    if (fake.delayMs > 0) setTimeout(reply, fake.delayMs)
    else reply()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}
