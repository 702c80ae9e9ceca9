// Which fixes the phone keeps and when it may send them, without a browser: one every 30 s at most,
// only after 50 m or 2 min; shifts with 30 min either side; kept fixes in order, per user.
import { describe, expect, it } from 'vitest'
import {
  type Fix,
  PositionBuffer,
  readConsent,
  shiftAt,
  worthKeeping,
  writeConsent,
} from './location-sharing'

class MemoryStorage {
  private readonly items = new Map<string, string>()
  get length() {
    return this.items.size
  }
  clear() {
    this.items.clear()
  }
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
  setItem(key: string, value: string) {
    this.items.set(key, value)
  }
}

const fix = (metresNorth: number, recordedAt = '2026-11-26T09:00:00.000Z'): Fix => ({
  latitude: 51.5 + metresNorth / 111_195,
  longitude: -0.1,
  accuracy: 10,
  recordedAt,
})

describe('location sharing', () => {
  it('keeps the first fix, then one at most every 30 s that moved over 50 m or came 2 min later', () => {
    const last = { fix: fix(0), at: 0 }
    expect(worthKeeping(null, fix(0), 0)).toBe(true)
    expect(worthKeeping(last, fix(500), 29_999)).toBe(false)
    expect(worthKeeping(last, fix(40), 30_000)).toBe(false)
    expect(worthKeeping(last, fix(60), 30_000)).toBe(true)
    expect(worthKeeping(last, fix(0), 119_999)).toBe(false)
    expect(worthKeeping(last, fix(0), 120_000)).toBe(true)
  })

  it('is on shift from 30 min before its start to 30 min after its end', () => {
    const shifts = [{ start: '2026-11-26T08:00:00.000Z', end: '2026-11-26T16:00:00.000Z' }]
    expect(shiftAt(shifts, Date.parse('2026-11-26T07:29:00Z'))).toBeNull()
    expect(shiftAt(shifts, Date.parse('2026-11-26T07:30:00Z'))).toBe(shifts[0])
    expect(shiftAt(shifts, Date.parse('2026-11-26T16:30:00Z'))).toBe(shifts[0])
    expect(shiftAt(shifts, Date.parse('2026-11-26T16:31:00Z'))).toBeNull()
  })

  it('keeps unsent fixes in order, 100 a batch, and the answer, per user', () => {
    const storage = new MemoryStorage()
    const buffer = new PositionBuffer(storage, 'u1')
    for (let i = 0; i < 150; i++) buffer.push(fix(i))
    expect(new PositionBuffer(storage, 'u2').read()).toEqual([])
    const first = buffer.next()
    expect(first).toHaveLength(100)
    expect(first[0]).toEqual(fix(0))
    buffer.drop(first.length)
    expect(new PositionBuffer(storage, 'u1').next().map((f) => f.latitude)).toEqual(
      Array.from({ length: 50 }, (_, i) => fix(100 + i).latitude),
    )
    expect(readConsent(storage, 'u1')).toBeNull()
    writeConsent(storage, 'u1', 'declined')
    expect(readConsent(storage, 'u1')).toBe('declined')
    expect(readConsent(storage, 'u2')).toBeNull()
  })
})
