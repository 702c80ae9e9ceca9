// Emits the technician app's service worker as /sw.js (a fixed name: a worker's URL is its identity)
// with the build's file list and a build id written in, so a new build is a new worker that caches
// the new files and drops the old ones. Only `vite build` emits it; the dev server has no worker.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

const SOURCE = fileURLToPath(new URL('./service-worker.js', import.meta.url))
const PUBLIC_DIR = fileURLToPath(new URL('../public', import.meta.url))

function publicFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? publicFiles(path) : [relative(PUBLIC_DIR, path).split('\\').join('/')]
  })
}

export function serviceWorker(): Plugin {
  return {
    name: 'fieldservice-service-worker',
    apply: 'build',
    // After Vite's own generateBundle hooks: they drop the script chunks that only carried CSS (a lazy
    // page's stylesheet), which must not be listed (the worker's install would fetch a missing file).
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const built = Object.keys(bundle).filter((file) => !file.endsWith('.map') && file !== 'index.html')
        const files = [...built, ...publicFiles(PUBLIC_DIR)].sort()
        const id = createHash('sha256')
          .update(files.join('\n'))
          .update(readFileSync(SOURCE))
          .digest('hex')
          .slice(0, 12)
        const source = `self.__FIELDSERVICE_BUILD__ = ${JSON.stringify({ id, files })}\n${readFileSync(SOURCE, 'utf8')}`
        this.emitFile({ type: 'asset', fileName: 'sw.js', source })
      },
    },
  }
}
