// A metric whose samples are computed when Prometheus scrapes, registered as prom-client expects
// (`get()` → `{ name, help, type, values, aggregator }`), so it prints and aggregates across cluster
// workers exactly like prom-client's own metrics.
import type { Aggregator, Metric, Registry } from 'prom-client'

export interface SampleValue {
  labels: Record<string, string | number>
  value: number
  /** For histograms: `<name>_bucket`, `_sum`, `_count`. */
  metricName?: string
}

export interface CollectorDefinition {
  name: string
  help: string
  type: 'counter' | 'gauge' | 'histogram'
  /** How the cluster primary combines the workers' samples (prom-client's names; default sum). */
  aggregator?: Aggregator
  values(): SampleValue[] | Promise<SampleValue[]>
}

export function registerCollector(registry: Registry, definition: CollectorDefinition): void {
  const { name, help, type, aggregator = 'sum' } = definition
  const metric = {
    name,
    help,
    type,
    aggregator,
    async get() {
      return { name, help, type, aggregator, values: await definition.values() }
    },
    reset() {},
  }
  registry.registerMetric(metric as unknown as Metric)
}
