// Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, once, at the
// highest settings (they cost nothing at run time): the server sends the one the browser accepts
// (src/http/dashboard.ts, @fastify/static's preCompressed). A copy that would not be smaller is not
// written, nor one of a file under 1 kB (the headers would outweigh the saving).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/
const MIN_BYTES = 1024

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? files(path) : [path]
  })
}

/** Compresses every text file under `dir`; returns how many copies it wrote. */
export function precompressDir(dir: string): number {
  let written = 0
  for (const path of files(dir)) {
    if (!TEXT.test(path) || statSync(path).size < MIN_BYTES) continue
    const bytes = readFileSync(path)
    const br = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    })
    const gz = gzipSync(bytes, { level: 9 })
    if (br.length < bytes.length) {
      writeFileSync(`${path}.br`, br)
      written++
    }
    if (gz.length < bytes.length) {
      writeFileSync(`${path}.gz`, gz)
      written++
    }
  }
  return written
}

export function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'fieldservice-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    closeBundle: {
      order: 'post',
      handler() {
        precompressDir(outDir)
      },
    },
  }
}
