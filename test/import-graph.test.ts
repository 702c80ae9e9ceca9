// The shape of the house, held against the code (docs/architecture.md, "Which way the arrows go"): no
// two source files import each other, directly or round a loop, and src/http/ reaches a module only
// through the two doors it is meant to use. Type-only imports count: a loop of types is still a loop
// a reader has to untangle.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
/** Left to the fast-path work: database.ts registers handles with hot-query.ts, which asks it the dialect. */
const KNOWN_CYCLES = [['src/db/database.ts', 'src/db/hot-query.ts']]
/** What src/http/ may import of src/modules/. */
const HTTP_DOORS = new Set(['src/modules/auth/index.ts', 'src/modules/idempotency/service.ts'])

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** Every relative `import … from` / `export … from` of a file, as repository paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms)]
  return specifiers.map((match) =>
    relative(ROOT, resolve(ROOT, dirname(file), (match[1] as string).replace(/\.js$/, '.ts'))),
  )
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node) as number)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop() as string
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string))
}

describe('the import graph of src/', () => {
  const graph = new Map(sourceFiles('src').map((file) => [file, importsOf(file)]))

  it('reads the imports it should (a check of the check)', () => {
    expect(graph.get('src/app.ts')).toContain('src/services.ts')
    expect(graph.get('src/http/authentication.ts')).toContain('src/modules/auth/index.ts')
  })

  it('has no import cycle but the one left to the fast-path work', () => {
    expect(cycles(graph)).toEqual(KNOWN_CYCLES)
  })

  it('lets src/http/ reach a module only through the auth and idempotency doors', () => {
    const reaches = [...graph]
      .filter(([file]) => file.startsWith('src/http/'))
      .flatMap(([file, imports]) => imports.map((target) => `${file} -> ${target}`))
      .filter((arrow) => arrow.includes(' -> src/modules/'))
      .filter((arrow) => !HTTP_DOORS.has(arrow.split(' -> ')[1] as string))
    expect(reaches).toEqual([])
  })

  it("reaches a module's repositories only from inside that module (others call its service)", () => {
    const moduleOf = (file: string) => /^src\/modules\/([^/]+)\//.exec(file)?.[1]
    const reaches = [...graph]
      .flatMap(([file, imports]) => imports.map((target) => [file, target] as const))
      .filter(([, target]) => target.startsWith('src/modules/') && target.endsWith('repository.ts'))
      .filter(([file, target]) => moduleOf(file) !== moduleOf(target))
      .map(([file, target]) => `${file} -> ${target}`)
    expect(reaches).toEqual([])
  })
})
