// Granular local search (Toth & Vigo 2003; Vidal et al. 2013, HGS): each customer u is tried
// against its k nearest customers v that could share a route, with relocate, swap, Or-opt and
// 2-opt* (operators/), each move evaluated in O(1) from the routes' cached segments. First
// improvement: an improving move is applied at once and the scan goes on; passes repeat until no
// move improves. A pair is skipped while neither route changed since u was last scanned, so later
// passes only look where something moved. Customers are never unassigned, and every change goes
// through the search state (refresh and its undo log), so a rejected iteration is undone whole.

import type { OperatorStats } from './model.js'
import { IMPROVEMENT, MoveContext, type Operator } from './operators/context.js'
import { OrOpt } from './operators/or-opt.js'
import { Relocate } from './operators/relocate.js'
import { Swap } from './operators/swap.js'
import { TwoOptStar } from './operators/two-opt-star.js'
import type { Problem } from './problem.js'
import type { Random } from './random.js'
import type { SearchState } from './state.js'

/** Default size of a customer's granular neighbourhood. */
export const GRANULAR_NEIGHBOURS = 30

export type OperatorName = 'relocate' | 'swap' | 'or-opt' | '2-opt*'

export interface LocalSearchOptions {
  /** Size of each customer's granular neighbourhood (default GRANULAR_NEIGHBOURS). */
  neighbours?: number
  /** Operators to use, in this order (default all: relocate, swap, or-opt, 2-opt*). */
  operators?: OperatorName[]
  /**
   * Asked after every INTERRUPT_SCANS customers scanned (a few milliseconds on large days): true ends
   * the run there, with every move so far kept (the state is feasible after each). Progress reports,
   * cancellation and the time limit go through it.
   */
  interrupt?: () => boolean
}

/** Customers scanned between two calls of `interrupt` (each scan: up to k neighbours × 4 operators). */
const INTERRUPT_SCANS = 64

/**
 * Each customer's nearest customers (by distance from it) that can share at least one route:
 * neighbours[c * k .. c * k + count[c]).
 */
export function granularNeighbours(
  p: Problem,
  k: number,
): { k: number; neighbours: Int32Array; count: Int32Array } {
  const R = p.routes
  const size = Math.min(k, p.neighbourCount)
  const neighbours = new Int32Array(p.n * size)
  const count = new Int32Array(p.n)
  const everywhere = p.allowed.every((x) => x === 1)
  for (let c = 0; c < p.n; c++) {
    let found = 0
    for (let i = 0; i < p.neighbourCount && found < size; i++) {
      const v = p.neighbours[c * p.neighbourCount + i]!
      let share = everywhere
      for (let r = 0; r < R && !share; r++) share = p.allowed[c * R + r] === 1 && p.allowed[v * R + r] === 1
      if (share) neighbours[c * size + found++] = v
    }
    count[c] = found
  }
  return { k: size, neighbours, count }
}

export class LocalSearch {
  readonly operators: Operator[]
  readonly ctx: MoveContext
  /** Moves applied over all runs. */
  moves = 0
  private readonly s: SearchState
  private readonly k: number
  private readonly neighbours: Int32Array
  private readonly neighbourCount: Int32Array
  private readonly order: Int32Array
  /** Clock value when a customer's neighbourhood was last scanned, and when a route last changed. */
  private readonly tested: Int32Array
  private readonly modified: Int32Array
  private clock = 0
  private readonly interrupt: (() => boolean) | undefined

  constructor(s: SearchState, options: LocalSearchOptions = {}) {
    this.s = s
    const p = s.p
    const granular = granularNeighbours(p, options.neighbours ?? GRANULAR_NEIGHBOURS)
    this.k = granular.k
    this.neighbours = granular.neighbours
    this.neighbourCount = granular.count
    this.ctx = new MoveContext(s)
    const all = [new Relocate(this.ctx), new Swap(this.ctx), new OrOpt(this.ctx), new TwoOptStar(this.ctx)]
    this.operators = options.operators
      ? options.operators.map((name) => all.find((op) => op.name === name)!)
      : all
    this.order = new Int32Array(p.n)
    this.tested = new Int32Array(p.n)
    this.modified = new Int32Array(p.routes)
    this.interrupt = options.interrupt
  }

  /**
   * Improves the state until no move around the customers in scope improves it: every assigned
   * customer, or those of routes[0..routeCount). Returns the number of moves applied.
   */
  run(rng: Random, routes?: Int32Array, routeCount = 0, customers?: Int32Array, customerCount = 0): number {
    const s = this.s
    const p = s.p
    const n = p.n
    const order = this.order
    let count = 0
    if (routes) {
      for (let i = 0; i < routeCount; i++) {
        const r = routes[i]!
        const base = r * s.stride
        const end = s.len[r]! - 1
        for (let j = 1; j < end; j++) {
          const v = s.nodes[base + j]!
          if (v < n) order[count++] = v
        }
      }
    } else if (customers) {
      for (let i = 0; i < customerCount; i++)
        if (s.custRoute[customers[i]!] !== -1) order[count++] = customers[i]!
    } else for (let c = 0; c < n; c++) if (s.custRoute[c] !== -1) order[count++] = c
    for (let i = count - 1; i > 0; i--) {
      const j = rng.int(i + 1)
      const t = order[i]!
      order[i] = order[j]!
      order[j] = t
    }
    const runStart = ++this.clock
    this.ctx.version++
    const operators = this.operators
    const ops = operators.length
    const ctx = this.ctx
    const k = this.k
    const tested = this.tested
    const modified = this.modified
    const interrupt = this.interrupt
    let scanned = 0
    let applied = 0
    let improved = true
    while (improved) {
      improved = false
      for (let i = 0; i < count; i++) {
        if (interrupt !== undefined && ++scanned % INTERRUPT_SCANS === 0 && interrupt()) {
          improved = false
          break
        }
        const u = order[i]!
        const last = tested[u]!
        const fresh = last > runStart
        // Stamped before the scan: a move made during it changes routes after this stamp, so the
        // pairs scanned before that move are scanned again in the next pass.
        tested[u] = ++this.clock
        for (let j = 0; j < this.neighbourCount[u]!; j++) {
          const v = this.neighbours[u * k + j]!
          const rv = s.custRoute[v]!
          if (rv < 0) continue
          const ru = s.custRoute[u]!
          if (fresh && last > modified[ru]! && last > modified[rv]!) continue
          for (let o = 0; o < ops; o++) {
            const op = operators[o]!
            if (!(op.evaluate(u, v) < -IMPROVEMENT)) continue
            op.improving++
            if (op.apply()) {
              op.applied++
              const now = ++this.clock
              modified[ctx.changedA] = now
              if (ctx.changedB >= 0) modified[ctx.changedB] = now
              applied++
              improved = true
              break
            }
          }
        }
      }
    }
    this.moves += applied
    return applied
  }

  stats(): OperatorStats[] {
    return this.operators.map((op) => ({
      name: op.name,
      evaluations: op.evaluations,
      improving: op.improving,
      applied: op.applied,
    }))
  }
}
