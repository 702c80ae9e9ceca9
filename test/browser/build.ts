// The browser tests need the built SPA in dist/web: scripts/ensure-dashboard.mjs builds it when it is
// missing or older than web/ (a couple of seconds), one process at a time.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

export async function ensureDashboardBuilt(): Promise<void> {
  const result = spawnSync(process.execPath, ['scripts/ensure-dashboard.mjs'], {
    cwd: root,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`building the dashboard failed:\n${result.stderr}${result.stdout}`)
}
