// CPU time of a process from /proc/<pid>/stat: what the benchmark's figures per request are made of
// (load.ts) and how run.ts tells that a server has gone idle (processes.ts).
import { readFileSync } from 'node:fs'

/** Clock ticks per second of utime and stime (USER_HZ: 100 on Linux). */
export const CLOCK_TICKS = 100

/** utime + stime of `pid` in clock ticks (all its threads), or NaN when it cannot be read. */
export function cpuTicksOf(pid: number): number {
  try {
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return Number.NaN
  }
}

/** utime + stime of `pid` in seconds. */
export const cpuSecondsOf = (pid: number) => cpuTicksOf(pid) / CLOCK_TICKS
