// The real build of the dashboard (dist/web, as the browser tests serve it) ships no source maps
// (issue 27): no .map file, no sourceMappingURL comment pointing at one, and the server answers a
// map's URL with a 404 — a map held the whole source of the dashboard (3.47 MB) for anyone.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_DASHBOARD_DIR } from '../../src/http/dashboard.js'
import { BROWSER_DIALECTS } from '../helpers.js'
import { ensureDashboardBuilt } from './build.js'
import { type DashboardServer, startDashboard } from './harness.js'

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

describe('the dashboard build', () => {
  beforeAll(() => ensureDashboardBuilt())

  it('has no source map and no comment pointing at one', () => {
    const files = filesUnder(DEFAULT_DASHBOARD_DIR).map((file) => relative(DEFAULT_DASHBOARD_DIR, file))
    expect(files.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(1)
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([])
    const pointing = files.filter(
      (file) =>
        /\.(js|css|html)$/.test(file) &&
        readFileSync(join(DEFAULT_DASHBOARD_DIR, file), 'utf8').includes('sourceMappingURL'),
    )
    expect(pointing).toEqual([])
  })
})

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: the built dashboard served`, () => {
    let server: DashboardServer
    beforeAll(async () => {
      server = await startDashboard(dialect)
    })
    afterAll(() => server?.close())

    it('serves its script without a map and answers the map’s URL with a 404', async () => {
      const index = await (await fetch(`${server.url}/`)).text()
      const script = index.match(/src="(\/assets\/index-[^"]+\.js)"/)?.[1]
      expect(script, 'the entry script in index.html').toBeDefined()
      const asset = await fetch(`${server.url}${script}`)
      expect(asset.status).toBe(200)
      expect(asset.headers.get('sourcemap')).toBeNull()
      expect(asset.headers.get('x-sourcemap')).toBeNull()
      expect((await asset.text()).includes('sourceMappingURL'), 'a sourceMappingURL comment').toBe(false)
      const map = await fetch(`${server.url}${script}.map`)
      expect(map.status).toBe(404)
      expect(map.headers.get('content-type')).toMatch(/^application\/json/)
    })
  })
}
