// Reader of the Solomon / Gehring & Homberger text format (see bench/routing/instances/README.md):
// node 0 is the depot, the fleet is the file's vehicle number with one capacity dimension, travel
// time equals the Euclidean distance, service must start by the due date and every route returns
// to the depot by the depot's due date. Cost is pure distance (costPerKm 1000 over "metres").
import type { RoutingModel } from './model.js'
import { euclideanMatrix } from './travel.js'

export interface SolomonInstance {
  name: string
  vehicles: number
  capacity: number
  /** Customer numbers as in the file, in model job order. */
  customerNumbers: number[]
  model: RoutingModel
}

export function parseSolomon(text: string): SolomonInstance {
  const lines = text.split(/\r?\n/)
  const name = lines.find((line) => line.trim() !== '')?.trim() ?? 'instance'
  let vehicles = Number.NaN
  let capacity = Number.NaN
  const rows: number[][] = []
  let section: 'none' | 'vehicle' | 'customer' = 'none'
  for (const raw of lines) {
    const line = raw.trim()
    if (/^VEHICLE/i.test(line)) section = 'vehicle'
    else if (/^CUSTOMER/i.test(line)) section = 'customer'
    if (!/^[\d.\s-]+$/.test(line) || line === '') continue
    const numbers = line.split(/\s+/).map(Number)
    if (section === 'vehicle' && numbers.length === 2 && Number.isNaN(vehicles)) {
      vehicles = numbers[0]!
      capacity = numbers[1]!
    } else if (section === 'customer' && numbers.length >= 7) {
      rows.push(numbers)
    }
  }
  if (!(vehicles > 0) || !(capacity >= 0) || rows.length === 0) {
    throw new Error('not a Solomon-format file (VEHICLE NUMBER CAPACITY and CUSTOMER rows expected)')
  }
  const [depot, ...customers] = rows
  const xs = rows.map((row) => row[1]!)
  const ys = rows.map((row) => row[2]!)
  const horizon: [number, number] = [depot![4]!, depot![5]!]
  const model: RoutingModel = {
    dimensions: 1,
    dimensionNames: ['demand'],
    locations: rows.map((row) => ({ lat: row[2]!, lng: row[1]! })),
    travel: euclideanMatrix(xs, ys),
    routes: Array.from({ length: vehicles }, (_, index) => ({
      id: String(index + 1),
      start: 0,
      end: 'RETURN_TO_ORIGIN' as const,
      window: horizon,
      breaks: [],
      capacity: [capacity],
      skills: [],
      fixedCost: 0,
      costPerKm: 1000,
      costPerHour: 0,
      speedFactor: 1,
    })),
    jobs: customers.map((row, index) => ({
      id: String(row[0]),
      location: index + 1,
      serviceSeconds: row[6]!,
      window: [row[4]!, row[5]!] as [number, number],
      windowType: 'HARD' as const,
      priority: 'NORMAL' as const,
      demand: [row[3]!],
      skills: [],
    })),
    options: { windowRule: 'START_BY_DUE' },
  }
  return { name, vehicles, capacity, customerNumbers: customers.map((row) => row[0]!), model }
}
