// The command line of `npm run bench` (documented at the top of run.ts and in docs/benchmarks.md).
import { SCENARIOS } from './scenarios.js'

export type BenchDialect = 'sqlite' | 'postgres'

export interface BenchOptions {
  sizes: number[]
  dialects: BenchDialect[]
  /** Measured seconds per scenario and per server. */
  duration: number
  warmup: number
  connections: number
  /**
   * At the target size, the scenarios with a raw route measure the service and the raw route this many
   * times each, alternated (S R S R …), and report the median of each: the ratio targets are judged on it.
   */
  rounds: number
  scenarios: string[]
  quick: boolean
  /** Run the service from src/ through tsx instead of building dist/ first. */
  source: boolean
  /** Build datasets that are missing or stale, then stop. */
  prepareOnly: boolean
  /** Rebuild the datasets even when the cached ones are complete. */
  rebuild: boolean
  /** Skip writing docs/benchmarks.md (the JSON is always written). */
  noDocs: boolean
}

export const DEFAULT_SIZES = [10_000, 100_000, 1_000_000]

/** `10k` → 10000, `1m` → 1000000, `2500` → 2500. */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim())
  if (!match) throw new Error(`--sizes: "${text}" is not a size like 10k, 100k or 1m`)
  const factor = { '': 1, k: 1_000, m: 1_000_000 }[(match[2] ?? '').toLowerCase() as '' | 'k' | 'm']
  const size = Math.round(Number(match[1]) * factor)
  if (size < 100) throw new Error(`--sizes: ${text} is too small (at least 100 jobs)`)
  return size
}

/** 10000 → "10k", 1000000 → "1m": used in file and database names, so stable. */
export function sizeLabel(size: number): string {
  if (size % 1_000_000 === 0) return `${size / 1_000_000}m`
  if (size % 1_000 === 0) return `${size / 1_000}k`
  return String(size)
}

function positiveNumber(flag: string, value: string | undefined): number {
  const number = Number(value)
  if (value === undefined || !Number.isFinite(number) || number <= 0) {
    throw new Error(`${flag} needs a positive number, got "${value ?? ''}"`)
  }
  return number
}

function list(value: string | undefined, flag: string): string[] {
  const items = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
  if (items.length === 0) throw new Error(`${flag} needs a comma-separated list`)
  return items
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = {
    sizes: DEFAULT_SIZES,
    dialects: ['sqlite', 'postgres'],
    duration: 10,
    warmup: 3,
    connections: 50,
    rounds: 3,
    scenarios: SCENARIOS.filter((s) => s.default).map((s) => s.name),
    quick: false,
    source: false,
    prepareOnly: false,
    rebuild: false,
    noDocs: false,
  }
  const explicit = new Set<string>()
  for (let i = 0; i < argv.length; i++) {
    const [flag = '', inline] = (argv[i] as string).split(/=(.*)/s, 2)
    const value = () => (inline !== undefined ? inline : argv[++i])
    explicit.add(flag)
    switch (flag) {
      case '--sizes':
        options.sizes = list(value(), flag).map(parseSize)
        break
      case '--dialects':
        options.dialects = list(value(), flag).map((d) => {
          if (d !== 'sqlite' && d !== 'postgres') throw new Error(`--dialects: unknown dialect "${d}"`)
          return d
        })
        break
      case '--duration':
        options.duration = positiveNumber(flag, value())
        break
      case '--warmup':
        options.warmup = Number(value())
        if (!Number.isFinite(options.warmup) || options.warmup < 0) throw new Error('--warmup needs ≥ 0')
        break
      case '--connections':
        options.connections = Math.round(positiveNumber(flag, value()))
        break
      case '--rounds':
        options.rounds = Math.round(positiveNumber(flag, value()))
        break
      case '--scenarios': {
        const known = new Set(SCENARIOS.map((s) => s.name))
        options.scenarios = list(value(), flag)
        const unknown = options.scenarios.filter((s) => !known.has(s))
        if (unknown.length > 0) {
          throw new Error(`--scenarios: unknown ${unknown.join(', ')}; known: ${[...known].join(', ')}`)
        }
        break
      }
      case '--quick':
        options.quick = true
        break
      case '--source':
        options.source = true
        break
      case '--prepare-only':
        options.prepareOnly = true
        break
      case '--rebuild':
        options.rebuild = true
        break
      case '--no-docs':
        options.noDocs = true
        break
      case '--help':
      case '-h':
        throw new HelpRequested()
      default:
        throw new Error(`unknown option "${flag}" (try --help)`)
    }
  }
  if (options.quick) {
    if (!explicit.has('--sizes')) options.sizes = [10_000]
    if (!explicit.has('--duration')) options.duration = 2
    if (!explicit.has('--warmup')) options.warmup = 1
    if (!explicit.has('--rounds')) options.rounds = 1
  }
  options.sizes = [...new Set(options.sizes)].sort((a, b) => a - b)
  // Reads before writes, whatever order was asked for: POST /jobs adds to the lists measured.
  const order = SCENARIOS.map((s) => s.name)
  options.scenarios = [...new Set(options.scenarios)].sort((a, b) => order.indexOf(a) - order.indexOf(b))
  options.dialects = [...new Set(options.dialects)]
  return options
}

export class HelpRequested extends Error {}
