// The live day's words on the board: a position's age and when it fades, the banner's count of stops
// at risk and late, and a route's forecast end with its overtime.
import { describe, expect, it } from 'vitest'
import { isStale, type LiveShift, positionAge, predictedEndText, riskCounts, riskSummary } from './live-model'

const NOW = Date.parse('2026-12-07T12:45:00Z')
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString()

describe('the live day on the board', () => {
  it('says how old a position is, and fades it past 15 minutes', () => {
    expect(positionAge(ago(0.5), NOW)).toBe('just now')
    expect(positionAge(ago(2), NOW)).toBe('2 min ago')
    expect(positionAge(ago(60), NOW)).toBe('1 h ago')
    expect(positionAge(ago(80), NOW)).toBe('1 h 20 min ago')
    expect(positionAge(ago(200), NOW)).toBe('3 h ago')
    // A phone a little ahead of the server is not "in the future".
    expect(positionAge(ago(-1), NOW)).toBe('just now')
    expect(isStale(ago(15), NOW)).toBe(false)
    expect(isStale(ago(16), NOW)).toBe(true)
  })

  it('counts the stops at risk and late, in words', () => {
    const shift = (risks: string[]) => ({ stops: risks.map((risk) => ({ risk })) }) as unknown as LiveShift
    const counts = riskCounts([shift(['AT_RISK', 'ON_TIME', 'LATE']), shift(['AT_RISK'])])
    expect(counts).toEqual({ atRisk: 2, late: 1 })
    expect(riskSummary(counts)).toBe('2 stops at risk, 1 late')
    expect(riskSummary({ atRisk: 1, late: 0 })).toBe('1 stop at risk')
    expect(riskSummary({ atRisk: 0, late: 2 })).toBe('2 stops late')
    expect(riskSummary({ atRisk: 0, late: 0 })).toBe('')
  })

  it('gives the forecast end, and overtime only past the shift', () => {
    const clock = (iso: string) => iso.slice(11, 16)
    expect(predictedEndText({ predictedEnd: '2026-12-07T16:40:00Z', overtimeMinutes: 0 }, clock)).toBe(
      'Ends ~16:40',
    )
    expect(predictedEndText({ predictedEnd: '2026-12-07T18:20:00Z', overtimeMinutes: 80 }, clock)).toBe(
      'Ends ~18:20 · 1 h 20 min overtime',
    )
  })
})
