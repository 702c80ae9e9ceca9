// The pure parts of the form state every dialog uses: whose message a field shows, and when a form
// counts as changed.
import { describe, expect, it } from 'vitest'
import { fieldError, sameValues } from './use-form-state'

describe('fieldError', () => {
  it('shows the form’s own check before the server’s message, else the server’s', () => {
    const problems = { latitude: 'must be a number' }
    const server = { latitude: 'must be number', name: 'must be at least 1 character' }
    expect(fieldError(problems, server, 'latitude')).toBe('must be a number')
    expect(fieldError(problems, server, 'name')).toBe('must be at least 1 character')
    expect(fieldError(problems, server, 'code')).toBeUndefined()
  })
})

describe('sameValues', () => {
  it('compares tags and capacities by content, so choosing and unchoosing leaves a form unchanged', () => {
    const start = { name: 'Van 1', tagIds: ['a'], capacities: { kg: '100' } }
    expect(sameValues(start, { ...start, tagIds: ['a'], capacities: { kg: '100' } })).toBe(true)
    expect(sameValues(start, { ...start, tagIds: ['a', 'b'] })).toBe(false)
    expect(sameValues(start, { ...start, name: 'Van 2' })).toBe(false)
  })
})
