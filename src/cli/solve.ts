// `fieldservice solve FILE --format solomon`: solves a benchmark instance with the same engine the
// route-plans service uses, and prints the routes as the file's customer numbers.
import { readFileSync } from 'node:fs'
import { type Command, InvalidArgumentError, Option } from 'commander'
import { parseSolomon } from '../optimiser/solomon.js'
import { solve } from '../optimiser/solve.js'
import type { CliOutput } from './output.js'

function parseSeconds(value: string): number {
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600)
    throw new InvalidArgumentError('must be a number of seconds from 0 to 3600')
  return seconds
}

function parseSeed(value: string): number {
  const seed = Number(value)
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new InvalidArgumentError('must be a whole number from 0 to 4294967295')
  return seed
}

export interface SolveSummary {
  routes: number[][]
  unassigned: number[]
  distance: number
  vehicles: number
  seconds: number
}

/**
 * Where the command's clock starts (performance.now() milliseconds): the process's start when the
 * `fieldservice` bin runs it (index.ts calls `countFromProcessStart`), so loading the code and
 * reading the file come off the search's time and the whole run stays inside its limit; else (the
 * command run inside a longer-lived process, as the tests do) when the command starts.
 */
let processOrigin: number | null = null
export function countFromProcessStart(): void {
  processOrigin = 0
}

/** Kept back from the limit for what follows the search: building the plan, printing, exiting. */
const AFTER_SEARCH_MS = 60

export function solveSolomonFile(
  file: string,
  timeLimitSeconds: number,
  seed: number,
  started = processOrigin ?? performance.now(),
): SolveSummary {
  const instance = parseSolomon(readFileSync(file, 'utf8'))
  const spent = performance.now() - started
  const timeLimitMs = Math.max(1, timeLimitSeconds * 1000 - spent - AFTER_SEARCH_MS)
  const plan = solve(instance.model, { timeLimitMs, seed })
  const seconds = (performance.now() - started) / 1000
  const number = (job: number) => instance.customerNumbers[job]!
  return {
    routes: plan.routes.map((route) => route.stops.map((stop) => number(stop.job))),
    unassigned: plan.unassigned.map((u) => number(u.job)),
    distance: plan.routes.reduce((sum, route) => sum + route.distance, 0),
    vehicles: plan.routes.length,
    seconds: Math.round(seconds * 1000) / 1000,
  }
}

export function addSolveCommand(program: Command, output: CliOutput): void {
  program
    .command('solve')
    .description('Solve a VRPTW benchmark file with the route optimiser and print its routes')
    .argument('<file>', 'instance file')
    .addOption(new Option('--format <format>', 'file format').choices(['solomon']).default('solomon'))
    .addOption(new Option('--time-limit <seconds>', 'wall-clock limit').argParser(parseSeconds).default(5))
    .addOption(new Option('--seed <n>', 'seed of the search').argParser(parseSeed).default(1))
    .option('--json', 'machine-readable output')
    .action((file: string, options: { timeLimit: number; seed: number; json?: boolean }) => {
      const summary = solveSolomonFile(file, options.timeLimit, options.seed)
      if (options.json) {
        output.write(`${JSON.stringify(summary)}\n`)
        return
      }
      const lines = summary.routes.map((route, index) => `Route ${index + 1}: ${route.join(' ')}`)
      lines.push(
        `Distance ${summary.distance.toFixed(2)}, ${summary.vehicles} vehicles, ` +
          `${summary.unassigned.length} unassigned, ${summary.seconds} s`,
      )
      output.write(`${lines.join('\n')}\n`)
    })
}
