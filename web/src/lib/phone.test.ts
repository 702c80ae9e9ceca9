import { describe, expect, it } from 'vitest'
import { displayPhone } from './phone'

describe('a phone number for people', () => {
  it('reads a UK number in its national groups', () => {
    expect(displayPhone('+447700900123')).toBe('07700 900123')
    expect(displayPhone('+441614960123')).toBe('0161 496 0123')
    expect(displayPhone('+441134960000')).toBe('0113 496 0000')
    expect(displayPhone('+442079460123')).toBe('020 7946 0123')
    expect(displayPhone('+441632960123')).toBe('01632 960123')
    expect(displayPhone('+443001234567')).toBe('0300 123 4567')
  })

  it('leaves other countries, and anything unexpected, as stored', () => {
    expect(displayPhone('+14155550123')).toBe('+14155550123')
    expect(displayPhone('+3361234')).toBe('+3361234')
    expect(displayPhone('+4412')).toBe('+4412')
  })
})
