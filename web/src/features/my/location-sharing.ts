// Sharing the phone's position with the office, only while the worker is on shift and agreed to it.
// The device reports fixes as often as it likes; one is kept at most every 30 s, and only when it
// moved more than 50 m or 2 min passed since the last one kept. Kept fixes wait on the phone
// (localStorage, per user, oldest first) until they are sent, up to 100 a request, so fixes taken in
// a dead zone arrive late and in order. The server refusing them as off shift ends the sharing.

export const MIN_INTERVAL_MS = 30_000
export const MIN_DISTANCE_M = 50
export const MAX_SILENCE_MS = 120_000
/** The server takes positions from 30 min before a shift to 30 min after it. */
export const SHIFT_GRACE_MS = 30 * 60_000
export const MAX_BATCH = 100

export interface Fix {
  latitude: number
  longitude: number
  accuracy: number | null
  /** When the device took it (ISO 8601). */
  recordedAt: string
}

export interface ShiftSpan {
  start: string
  end: string
}

/** The worker's answer, remembered on this device: null until asked. */
export type Consent = 'shared' | 'declined' | null

const EARTH_RADIUS_M = 6_371_008.8
const RAD = Math.PI / 180

export function metresBetween(a: Fix, b: Fix): number {
  const dLat = (b.latitude - a.latitude) * RAD
  const dLng = (b.longitude - a.longitude) * RAD
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * RAD) * Math.cos(b.latitude * RAD) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Whether to keep a fix, given the last one kept and when it was kept (ms). */
export function worthKeeping(last: { fix: Fix; at: number } | null, fix: Fix, at: number): boolean {
  if (!last) return true
  const elapsed = at - last.at
  if (elapsed < MIN_INTERVAL_MS) return false
  return elapsed >= MAX_SILENCE_MS || metresBetween(last.fix, fix) > MIN_DISTANCE_M
}

/** The shift under way at `now` (30 min either side), if any. */
export function shiftAt(shifts: readonly ShiftSpan[], now: number): ShiftSpan | null {
  return (
    shifts.find(
      (shift) =>
        now >= Date.parse(shift.start) - SHIFT_GRACE_MS && now <= Date.parse(shift.end) + SHIFT_GRACE_MS,
    ) ?? null
  )
}

const CONSENT_PREFIX = 'fieldservice.my.location.'
const BUFFER_PREFIX = 'fieldservice.my.positions.'

export function readConsent(storage: Storage, userId: string): Consent {
  const value = storage.getItem(`${CONSENT_PREFIX}${userId}`)
  return value === 'shared' || value === 'declined' ? value : null
}

export function writeConsent(storage: Storage, userId: string, consent: Exclude<Consent, null>): void {
  storage.setItem(`${CONSENT_PREFIX}${userId}`, consent)
}

/** The fixes kept and not yet sent, oldest first, on this phone. */
export class PositionBuffer {
  constructor(
    private readonly storage: Storage,
    private readonly userId: string,
  ) {}

  private get key(): string {
    return `${BUFFER_PREFIX}${this.userId}`
  }

  read(): Fix[] {
    try {
      const parsed = JSON.parse(this.storage.getItem(this.key) ?? '[]')
      return Array.isArray(parsed) ? (parsed as Fix[]) : []
    } catch {
      return []
    }
  }

  private write(fixes: Fix[]): void {
    if (fixes.length === 0) this.storage.removeItem(this.key)
    else this.storage.setItem(this.key, JSON.stringify(fixes))
  }

  push(fix: Fix): void {
    this.write([...this.read(), fix])
  }

  /** The oldest batch to send. */
  next(): Fix[] {
    return this.read().slice(0, MAX_BATCH)
  }

  /** Removes the oldest `count` (they were sent, or refused for good). */
  drop(count: number): void {
    this.write(this.read().slice(count))
  }

  clear(): void {
    this.write([])
  }
}
