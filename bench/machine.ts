// What the figures were measured on: they mean little without it.
import { readFileSync } from 'node:fs'
import { availableParallelism, loadavg, release, totalmem } from 'node:os'
import SQLite from 'better-sqlite3'
import { withPostgresAdmin } from './dataset.js'
import { PINNING } from './processes.js'

export interface Machine {
  cpu: string
  cores: number
  memoryGb: number
  os: string
  node: string
  sqlite: string
  postgres: string | null
  /** Server on core 0 and load generator on core 1 (taskset); false: not pinned. */
  pinned: boolean
  /** 1, 5 and 15 minute load averages when the run started: other work skews the figures. */
  loadAverage: number[]
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))
    return match?.[1]?.trim() ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

function osName(): string {
  try {
    const match = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))
    return `${match?.[1] ?? 'Linux'} (kernel ${release()})`
  } catch {
    return `kernel ${release()}`
  }
}

export async function describeMachine(withPostgres: boolean): Promise<Machine> {
  const memory = new SQLite(':memory:')
  const sqlite = (memory.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v
  memory.close()
  const postgres = withPostgres
    ? await withPostgresAdmin(async (client) => {
        const { rows } = await client.query<{ server_version: string }>('SHOW server_version')
        return rows[0]?.server_version ?? null
      })
    : null
  return {
    cpu: cpuModel(),
    cores: availableParallelism(),
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os: osName(),
    node: process.version,
    sqlite,
    postgres,
    pinned: PINNING,
    loadAverage: loadavg().map((load) => Math.round(load * 100) / 100),
  }
}
