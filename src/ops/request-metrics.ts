// Request count, latency and 429s by method, route pattern and status, kept in plain counters.
//
// The onResponse hook runs on every request of a benchmarked service, so recording is three Map
// lookups on strings and a number that already exist (route pattern, method, status) and a few
// additions; prom-client's own observe() would build and hash a label string on every call. The
// Prometheus series are produced from these counters only when /metrics is scraped.
import type { Registry } from 'prom-client'
import { registerCollector, type SampleValue } from './collector.js'

/** The route label of requests no route matched (404s): never the raw URL, which is unbounded. */
export const UNMATCHED_ROUTE = 'unmatched'

/** Upper bounds in seconds: sub-millisecond SQLite reads up to the 10 s webhook-sized tail. */
const BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const BUCKETS_MS = BUCKETS_SECONDS.map((s) => s * 1000)

class Series {
  count = 0
  sumMs = 0
  /** Per bucket, not cumulative; slower than the last bound counts in +Inf only. */
  readonly buckets = new Float64Array(BUCKETS_MS.length)
}

type ByStatus = Map<number, Series>
type ByMethod = Map<string, ByStatus>

export class RequestMetrics {
  private readonly routes = new Map<string, ByMethod>()

  /** `route` is the matched route's pattern (`/v1/public/jobs/:id`), undefined when none matched. */
  record(route: string | undefined, method: string, statusCode: number, elapsedMs: number): void {
    const key = route ?? UNMATCHED_ROUTE
    let methods = this.routes.get(key)
    if (methods === undefined) {
      methods = new Map()
      this.routes.set(key, methods)
    }
    let statuses = methods.get(method)
    if (statuses === undefined) {
      statuses = new Map()
      methods.set(method, statuses)
    }
    let series = statuses.get(statusCode)
    if (series === undefined) {
      series = new Series()
      statuses.set(statusCode, series)
    }
    series.count += 1
    series.sumMs += elapsedMs
    for (let i = 0; i < BUCKETS_MS.length; i++) {
      if (elapsedMs <= (BUCKETS_MS[i] as number)) {
        ;(series.buckets[i] as number) += 1
        break
      }
    }
  }

  register(registry: Registry): void {
    registerCollector(registry, {
      name: 'fieldservice_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      type: 'counter',
      values: () => this.map((labels, series) => [{ labels, value: series.count }]),
    })
    registerCollector(registry, {
      name: 'fieldservice_http_request_duration_seconds',
      help: 'Time from the request arriving to the response being written, in seconds',
      type: 'histogram',
      values: () => this.map(histogramSamples),
    })
    registerCollector(registry, {
      name: 'fieldservice_rate_limit_rejections_total',
      help: 'Requests refused with 429 RATE_LIMITED, by route pattern',
      type: 'counter',
      values: () => {
        const byRoute = new Map<string, number>()
        for (const [route, methods] of this.routes) {
          for (const statuses of methods.values()) {
            const count = statuses.get(429)?.count ?? 0
            if (count > 0) byRoute.set(route, (byRoute.get(route) ?? 0) + count)
          }
        }
        return [...byRoute].map(([route, value]) => ({ labels: { route }, value }))
      },
    })
  }

  private map(samples: (labels: Record<string, string>, series: Series) => SampleValue[]): SampleValue[] {
    const values: SampleValue[] = []
    for (const [route, methods] of this.routes) {
      for (const [method, statuses] of methods) {
        for (const [status, series] of statuses) {
          values.push(...samples({ method, route, status_code: String(status) }, series))
        }
      }
    }
    return values
  }
}

function histogramSamples(labels: Record<string, string>, series: Series): SampleValue[] {
  const name = 'fieldservice_http_request_duration_seconds'
  const values: SampleValue[] = []
  let cumulative = 0
  BUCKETS_SECONDS.forEach((le, i) => {
    cumulative += series.buckets[i] as number
    values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative })
  })
  values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: series.count })
  values.push({ metricName: `${name}_sum`, labels, value: series.sumMs / 1000 })
  values.push({ metricName: `${name}_count`, labels, value: series.count })
  return values
}
