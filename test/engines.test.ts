// A fresh `npm install` warns about no dependency's engine: every package in the lock file accepts
// the oldest Node this project supports (package.json `engines`) and the Node running the tests.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

// semver comes with fastify (its plugin version checks); npm itself uses the same rules.
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null
  satisfies(version: string, range: string): boolean
}

interface LockedPackage {
  version?: string
  engines?: { node?: string }
}

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'))

describe('dependency engines', () => {
  it('every locked package runs on the oldest supported Node and on this one', () => {
    const supported = (read('package.json') as { engines: { node: string } }).engines.node
    const oldest = semver.minVersion(supported)?.version as string
    expect(oldest).toBe('20.19.0')
    const locked = (read('package-lock.json') as { packages: Record<string, LockedPackage> }).packages
    const refusing = Object.entries(locked).flatMap(([path, pkg]) => {
      const range = pkg.engines?.node
      if (!path || !range) return []
      return [oldest, process.versions.node]
        .filter((node) => !semver.satisfies(node, range))
        .map((node) => `${path}@${pkg.version} needs node ${range}, not ${node}`)
    })
    expect(refusing).toEqual([])
  })
})
