// A drop's fate from the server's check (sent, refused, or waiting for a second drop on the same
// slot), the look of the drop target, the inverse call that undoes a change, and the undo keys.
import { describe, expect, it } from 'vitest'
import { decideDrop, isUndoKey, sameSlot, undoOf, verdictOf } from './board-changes'
import type { BoardJob } from './board-model'
import type { AssignmentProblem, Slot } from './queries'

const slot = (overrides: Partial<Slot> = {}): Slot => ({
  jobId: 'j1',
  userId: 'u1',
  shiftId: 's1',
  start: Date.parse('2026-12-07T19:15:00.000Z'),
  end: Date.parse('2026-12-07T20:15:00.000Z'),
  ...overrides,
})
const outside: AssignmentProblem = {
  code: 'OUTSIDE_SHIFT',
  severity: 'HARD',
  message: 'Tom’s shift ends 17:00',
}
const overtime: AssignmentProblem = { code: 'OVERTIME', severity: 'SOFT', message: 'Overtime: 45 min' }
const past: AssignmentProblem = { code: 'IN_THE_PAST', severity: 'SOFT', message: 'Starts in the past' }

describe('the drop target', () => {
  it('is red with the first HARD reason, even after SOFT ones; amber with the first SOFT one', () => {
    expect(verdictOf([overtime, outside, { ...outside, message: 'second' }])).toEqual({
      tone: 'hard',
      message: 'Tom’s shift ends 17:00',
    })
    expect(verdictOf([past, overtime])).toEqual({ tone: 'soft', message: 'Starts in the past' })
  })

  it('is normal with no problem, and still checking before the answer', () => {
    expect(verdictOf([])).toEqual({ tone: 'ok' })
    expect(verdictOf(undefined)).toEqual({ tone: 'checking' })
  })
})

describe('a drop', () => {
  it('with a HARD problem is refused with its reason, whatever was awaited', () => {
    expect(decideDrop(slot(), [outside], slot())).toEqual({
      action: 'refuse',
      message: 'Tom’s shift ends 17:00',
    })
  })

  it('with a SOFT problem asks for a second drop on the same slot, then is sent', () => {
    expect(decideDrop(slot(), [overtime], null)).toEqual({
      action: 'confirm',
      message: 'Overtime: 45 min — drop again to confirm',
    })
    expect(decideDrop(slot(), [overtime], slot())).toEqual({ action: 'send' })
    // Another time, row or job is another slot: asked again.
    expect(decideDrop(slot({ start: slot().start + 15 * 60_000 }), [overtime], slot()).action).toBe('confirm')
    expect(decideDrop(slot({ shiftId: 's2' }), [overtime], slot()).action).toBe('confirm')
    expect(decideDrop(slot({ jobId: 'j2' }), [overtime], slot()).action).toBe('confirm')
  })

  it('with no problem, or a check that could not be read, is sent (the server still refuses HARD ones)', () => {
    expect(decideDrop(slot(), [], null)).toEqual({ action: 'send' })
    expect(decideDrop(slot(), undefined, null)).toEqual({ action: 'send' })
  })

  it('is on the same slot when job, shift and start match', () => {
    expect(sameSlot(slot(), slot({ userId: 'other', end: 0 }))).toBe(true)
    expect(sameSlot(slot(), null)).toBe(false)
    expect(sameSlot(null, null)).toBe(false)
  })
})

const job = (overrides: Partial<BoardJob> = {}): BoardJob => ({
  id: 'j1',
  title: 'Boiler service',
  status: 'CREATED',
  priority: 'NORMAL',
  customer: null,
  locationId: null,
  latitude: null,
  longitude: null,
  ownPosition: false,
  serviceDuration: 3600,
  timeWindowType: 'HARD',
  earliestStart: null,
  latestEnd: null,
  scheduledStart: null,
  scheduledEnd: null,
  assignedUserId: null,
  shiftId: null,
  tags: [],
  ...overrides,
})

describe('undoing a change', () => {
  it('unassigns a job that was waiting before it', () => {
    expect(undoOf(job())).toEqual({ kind: 'unassign', jobId: 'j1', title: 'Boiler service' })
  })

  it('assigns a job that was assigned back to its worker, shift and times', () => {
    const before = job({
      status: 'ASSIGNED',
      assignedUserId: 'u1',
      shiftId: 's1',
      scheduledStart: '2026-12-07T09:00:00.000Z',
      scheduledEnd: '2026-12-07T10:00:00.000Z',
    })
    expect(undoOf(before)).toEqual({
      kind: 'assign',
      jobId: 'j1',
      title: 'Boiler service',
      assignment: {
        userId: 'u1',
        shiftId: 's1',
        scheduledStart: '2026-12-07T09:00:00.000Z',
        scheduledEnd: '2026-12-07T10:00:00.000Z',
      },
    })
    // Assigned on no shift: assigned again on none.
    expect(undoOf({ ...before, shiftId: null })).toMatchObject({
      assignment: { userId: 'u1', scheduledStart: '2026-12-07T09:00:00.000Z' },
    })
    expect(undoOf({ ...before, shiftId: null })).not.toHaveProperty('assignment.shiftId')
  })

  it('has nothing to offer for a job in another state', () => {
    expect(undoOf(job({ status: 'IN_PROGRESS' }))).toBeNull()
    expect(undoOf(job({ status: 'ASSIGNED', scheduledStart: null }))).toBeNull()
  })

  it('is Ctrl+Z, or Cmd+Z on a Mac, without Shift or Alt', () => {
    const key = (over: Partial<KeyboardEvent>) => ({
      key: 'z',
      ctrlKey: false,
      metaKey: false,
      shiftKey: false,
      altKey: false,
      ...over,
    })
    expect(isUndoKey(key({ ctrlKey: true }), false)).toBe(true)
    expect(isUndoKey(key({ ctrlKey: true, key: 'Z' }), false)).toBe(true)
    expect(isUndoKey(key({ metaKey: true }), true)).toBe(true)
    expect(isUndoKey(key({ metaKey: true }), false)).toBe(false)
    expect(isUndoKey(key({ ctrlKey: true }), true)).toBe(false)
    expect(isUndoKey(key({ ctrlKey: true, shiftKey: true }), false)).toBe(false)
    expect(isUndoKey(key({ ctrlKey: true, altKey: true }), false)).toBe(false)
    expect(isUndoKey(key({}), false)).toBe(false)
    expect(isUndoKey(key({ ctrlKey: true, key: 'y' }), false)).toBe(false)
  })
})
