// Ids minted now must sort in the order they were minted, even many in one millisecond: outbox
// events are delivered, and jobs listed, in (time, id) order.
import { describe, expect, it } from 'vitest'
import { newId } from './ids.js'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('newId', () => {
  it('mints unique UUIDv7s that sort in minting order, thousands per millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => newId())
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
  })

  it('stamps an explicit time and leaves the ids minted now in order', () => {
    const before = newId()
    const past = newId(Date.parse('2020-01-01T00:00:00.000Z'))
    expect(past.replaceAll('-', '').slice(0, 12)).toBe(
      Date.parse('2020-01-01T00:00:00.000Z').toString(16).padStart(12, '0'),
    )
    expect(UUID_V7.test(past)).toBe(true)
    expect(newId() > before).toBe(true)
  })
})
