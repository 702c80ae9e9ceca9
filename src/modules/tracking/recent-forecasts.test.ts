// The tracking page's forecasts kept a minute per job: computed once for any number of requests in
// that minute, computed again after it (or when the clock went back), the oldest forgotten first.
import { describe, expect, it } from 'vitest'
import { RecentForecasts } from './recent-forecasts.js'

describe('recent forecasts', () => {
  it('computes a job once a minute however often it is asked', async () => {
    const kept = new RecentForecasts<string>(60_000)
    let computed = 0
    const ask = (key: string, now: number) => kept.get(key, now, async () => `${key}@${now} #${++computed}`)
    expect(await ask('a', 0)).toBe('a@0 #1')
    expect(await ask('a', 30_000)).toBe('a@0 #1')
    expect(await ask('a', 59_999)).toBe('a@0 #1')
    expect(await ask('b', 59_999)).toBe('b@59999 #2')
    expect(await ask('a', 60_000)).toBe('a@60000 #3')
    // A clock set back (tests move it) is not served a forecast from its future.
    expect(await ask('a', 10_000)).toBe('a@10000 #4')
  })

  it('forgets the oldest job past its bound', async () => {
    const kept = new RecentForecasts<number>(60_000, 2)
    let computed = 0
    const ask = (key: string) => kept.get(key, 0, async () => ++computed)
    await ask('a')
    await ask('b')
    await ask('c')
    expect([await ask('b'), await ask('c'), await ask('a')]).toEqual([2, 3, 4])
  })
})
