// The bodies of the write scenarios: a different one for every request, so every POST creates a
// distinct job and every PATCH really changes the job it names.
import type { DynamicBody } from './scenarios.js'

const KINDS = ['Boiler service', 'Leak repair', 'Radiator bleed', 'Drain unblock', 'Tap replacement']
const PRIORITIES = ['LOW', 'NORMAL', 'HIGH'] as const
const HOUR = 3_600_000

export interface ConcreteRequest {
  method: string
  path: string
  body?: string
}

/** Request `n` (0, 1, 2, …) of a dynamic scenario; `tag` makes titles unique across runs too. */
export function concreteRequest(
  spec: { method: string; path: string; dynamic?: DynamicBody },
  n: number,
  tag: string,
): ConcreteRequest {
  const { dynamic } = spec
  if (!dynamic) return { method: spec.method, path: spec.path }
  if (dynamic.kind === 'create-job') {
    const day = Date.UTC(2026, 11, 1) + (n % 60) * 24 * HOUR
    const earliest = day + (8 + (n % 8)) * HOUR
    const body: Record<string, unknown> = {
      title: `${KINDS[n % KINDS.length]} ${tag}-${n}`,
      description: n % 2 === 0 ? 'Created by the benchmark' : null,
      priority: PRIORITIES[n % PRIORITIES.length],
      serviceDuration: 900 + 300 * (n % 12),
      timeWindowType: n % 4 === 0 ? 'SOFT' : 'HARD',
      earliestStart: new Date(earliest).toISOString(),
      latestEnd: new Date(earliest + (1 + (n % 4)) * HOUR).toISOString(),
      jobLatitude: 53.4 + (n % 1000) / 10_000,
      jobLongitude: -2.3 + (n % 997) / 10_000,
    }
    if (dynamic.customerIds.length > 0) body.customerId = dynamic.customerIds[n % dynamic.customerIds.length]
    if (dynamic.locationIds.length > 0) body.locationId = dynamic.locationIds[n % dynamic.locationIds.length]
    return { method: spec.method, path: spec.path, body: JSON.stringify(body) }
  }
  const id = dynamic.jobIds[n % dynamic.jobIds.length]
  const body = {
    title: `Updated by the benchmark ${tag}-${n}`,
    priority: PRIORITIES[n % PRIORITIES.length],
    serviceDuration: 600 + 60 * (n % 50),
  }
  return { method: spec.method, path: spec.path.replace(/[^/]+$/, id ?? ''), body: JSON.stringify(body) }
}
