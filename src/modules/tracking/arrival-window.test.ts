// The arrival window as the customer reads it (the tracking page and the emails): rounded to 5 min,
// said in the depot's zone with its abbreviation or offset, dated when it is not today there.
import { describe, expect, it } from 'vitest'
import { arrivalWindowOf, describeArrivalWindow, zonedArrivalWindow } from './arrival-window.js'

const say = (eta: string, zone: string, now: string) =>
  describeArrivalWindow(arrivalWindowOf(eta) as { from: string; to: string }, zone, Date.parse(now))

describe('the arrival window in words', () => {
  it('rounds each end of eta ± 15 min to 5 min, in UTC instants', () => {
    expect(arrivalWindowOf('2026-11-26T13:21:10Z')).toEqual({
      from: '2026-11-26T13:05:00.000Z',
      to: '2026-11-26T13:35:00.000Z',
    })
    expect(arrivalWindowOf(null)).toBeNull()
  })

  it('says London time as GMT in winter and BST (+01:00) in summer', () => {
    expect(say('2026-11-26T13:21:10Z', 'Europe/London', '2026-11-26T09:00:00Z')).toBe('13:05–13:35 (GMT)')
    expect(say('2026-07-16T13:21:10Z', 'Europe/London', '2026-07-16T09:00:00Z')).toBe('14:05–14:35 (BST)')
  })

  it("says another zone's time with its abbreviation or offset", () => {
    expect(say('2026-07-16T13:21:10Z', 'America/New_York', '2026-07-16T13:00:00Z')).toBe(
      '09:05–09:35 (GMT-4)',
    )
    expect(say('2026-07-16T13:21:10Z', 'Europe/Paris', '2026-07-16T13:00:00Z')).toBe('15:05–15:35 (CEST)')
    expect(say('2026-07-16T13:21:10Z', 'UTC', '2026-07-16T13:00:00Z')).toBe('13:05–13:35 (UTC)')
  })

  it('adds the date when the window is not today in that zone', () => {
    // 23:30 in London on the 16th is already the 17th in Tokyo.
    expect(say('2026-07-16T23:20:00Z', 'Europe/London', '2026-07-16T20:00:00Z')).toBe(
      'Fri 17 Jul, 00:05–00:35 (BST)',
    )
    expect(say('2026-07-17T09:00:00Z', 'Asia/Tokyo', '2026-07-16T20:00:00Z')).toBe('17:45–18:15 (GMT+9)')
    expect(say('2026-07-17T09:00:00Z', 'Asia/Tokyo', '2026-07-16T14:00:00Z')).toBe(
      'Fri 17 Jul, 17:45–18:15 (GMT+9)',
    )
  })

  it('names both zones for a window across a change of clocks', () => {
    // London springs forward at 01:00 GMT on 29 March 2026.
    expect(say('2026-03-29T00:55:00Z', 'Europe/London', '2026-03-29T00:00:00Z')).toBe(
      '00:40 (GMT)–02:10 (BST)',
    )
  })

  it('carries the words with the instants for the tracking page', () => {
    expect(
      zonedArrivalWindow('2026-07-16T13:21:10Z', 'Europe/London', Date.parse('2026-07-16T09:00Z')),
    ).toEqual({
      from: '2026-07-16T13:05:00.000Z',
      to: '2026-07-16T13:35:00.000Z',
      text: '14:05–14:35 (BST)',
    })
    expect(zonedArrivalWindow(null, 'Europe/London', 0)).toBeNull()
  })
})
