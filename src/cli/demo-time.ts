// Clock and chance for the demo seeder: a seedable PRNG (the demo never uses Math.random) and
// wall-clock times in a depot's time zone turned into instants.

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

/** mulberry32: small, fast and seedable; the demo must not depend on Math.random. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = Math.imul(state ^ (state >>> 15), state | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
export const iso = (ms: number) => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))

const formats = new Map<string, Intl.DateTimeFormat>()
/** How far `timeZone` is ahead of UTC at the instant `at`, in minutes (Europe/London in summer: 60). */
function zoneOffsetMinutes(at: number, timeZone: string): number {
  const options = { timeZone, hourCycle: 'h23', dateStyle: 'short', timeStyle: 'short' } as const
  const format = formats.get(timeZone) ?? new Intl.DateTimeFormat('en-GB', options)
  formats.set(timeZone, format)
  const parts = format.formatToParts(at)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const local = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'))
  return Math.round((local - Math.floor(at / MINUTE) * MINUTE) / MINUTE)
}

/** The instant when it is `minutes` past midnight in `timeZone` on the date starting at `dayUtc`. */
export function localTime(dayUtc: number, minutes: number, timeZone: string): number {
  const wall = dayUtc + minutes * MINUTE
  const guess = wall - zoneOffsetMinutes(wall, timeZone) * MINUTE
  return wall - zoneOffsetMinutes(guess, timeZone) * MINUTE
}
