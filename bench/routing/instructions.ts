// The engine's work per ruin-and-recreate iteration in machine instructions (valgrind's callgrind),
// which, unlike wall time, does not depend on what else the machine runs: for comparing two
// commits on a shared machine. fixed-solve.ts solves each instance three times in one process (a
// warm-up, 1 + ITERATIONS iterations, then one iteration, same seed) and marks the phases; callgrind
// counts each phase apart, and the difference of the last two over ITERATIONS is the cost of an
// iteration of warm code (start-up, construction and the optimising compiler left out). With
// --base, the same is measured on another checkout (e.g. a `git worktree` of an older commit) and
// the plans of both are compared (distance and a fingerprint of every route). The subtraction
// assumes the two solves' construction costs the same: code that builds new closures on every solve
// re-warms them in each (faaf401's search() did), so compare the phases' totals there as well.
//
//   tsx bench/routing/instructions.ts [--base DIR] [--iterations N] [--instances RC208,R101,...]
//
// Each checkout's engine is compiled to JavaScript first (TypeScript's transpiler, as the build
// does), so that the counts hold the engine and not the on-the-fly compilation of tsx; node runs
// single-threaded with fixed seeds, so a count repeats run after run. Under valgrind a solve runs
// some 50 times slower: 2,000 iterations of a Solomon instance take a few minutes.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import ts from 'typescript'
import { ROOT_DIR } from '../paths.js'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name)
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback
}
const iterations = Number(option('--iterations', '2000'))
const base = option('--base', '')
const names = option('--instances', 'RC208,R101,C204,rc2_2_1').split(',')
const INSTANCES = join(ROOT_DIR, 'bench/routing/instances')

interface Plan {
  distance: number
  fingerprint: string
}

function instanceFile(name: string): string {
  for (const folder of ['solomon', 'homberger_200', 'homberger_1000']) {
    const file = join(INSTANCES, folder, `${name}.txt`)
    if (existsSync(file)) return file
  }
  throw new Error(`no instance ${name}`)
}

const scratch = mkdtempSync(join(tmpdir(), 'instructions-'))

function transpile(from: string, to: string): void {
  const { outputText } = ts.transpileModule(readFileSync(from, 'utf8'), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  })
  writeFileSync(to, outputText)
}

/** Compiles checkout `root`'s engine and fixed-solve.ts into a folder of their own; returns the folder. */
function compile(root: string, index: number): string {
  const out = join(scratch, String(index))
  mkdirSync(join(out, 'src/optimiser/operators'), { recursive: true })
  mkdirSync(join(out, 'bench/routing'), { recursive: true })
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n')
  for (const folder of ['src/optimiser', 'src/optimiser/operators'])
    for (const name of readdirSync(join(root, folder)))
      if (name.endsWith('.ts') && !name.endsWith('.test.ts'))
        transpile(join(root, folder, name), join(out, folder, basename(name, '.ts') + '.js'))
  transpile(join(ROOT_DIR, 'bench/routing/fixed-solve.ts'), join(out, 'bench/routing/fixed-solve.js'))
  return out
}

/** Callgrind's count of phase `part` (see fixed-solve.ts: 3 = 1 + ITERATIONS, 4 = one iteration). */
function phase(prefix: string, part: number): number {
  const totals = /^totals: (\d+)/m.exec(readFileSync(`${prefix}.${part}`, 'utf8'))
  if (!totals) throw new Error(`no totals in ${prefix}.${part}`)
  return Number(totals[1])
}

/** Instructions per iteration of the compiled engine in `root` on `file`, and its plan. */
function perIteration(root: string, file: string): { perIteration: number; plan: Plan } {
  const prefix = join(root, `callgrind-${basename(file, '.txt')}`)
  const child = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${prefix}`,
      '--dump-before=*CPUUsage*',
      process.execPath,
      // One thread (the optimising compiler runs inline) and fixed seeds: the same count every run.
      '--single-threaded',
      '--random-seed=1',
      '--hash-seed=1',
      join(root, 'bench/routing/fixed-solve.js'),
      file,
      String(iterations),
    ],
    { cwd: ROOT_DIR, encoding: 'utf8', maxBuffer: 1 << 26 },
  )
  if (child.status !== 0) throw new Error(`callgrind of ${file} failed: ${child.stderr.slice(-2000)}`)
  const plan = JSON.parse(child.stdout.trim().split('\n').pop()!) as Plan
  return { perIteration: (phase(prefix, 3) - phase(prefix, 4)) / iterations, plan }
}

const checkouts = base ? [base, ROOT_DIR] : [ROOT_DIR]
const compiled = checkouts.map(compile)
const header = checkouts.map((root) => `${root} instr./iteration`).join(' | ')
process.stdout.write(`instance | ${header}${base ? ' | ratio | same plan' : ''}\n`)
for (const name of names) {
  const file = instanceFile(name)
  const results = compiled.map((root) => perIteration(root, file))
  const cells = results.map((result) => Math.round(result.perIteration).toLocaleString('en'))
  let line = `${name} | ${cells.join(' | ')}`
  if (base) {
    const [before, after] = results as [(typeof results)[0], (typeof results)[0]]
    const same =
      before.plan.fingerprint === after.plan.fingerprint && before.plan.distance === after.plan.distance
    line += ` | ${(after.perIteration / before.perIteration).toFixed(4)} | ${same ? 'yes' : 'NO'} (${after.plan.distance.toFixed(4)})`
  }
  process.stdout.write(`${line}\n`)
}
rmSync(scratch, { recursive: true })
