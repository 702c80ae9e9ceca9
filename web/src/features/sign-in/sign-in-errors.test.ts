import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/errors'
import { organisationChoices, signInMessage } from './sign-in-errors'

describe('sign-in messages', () => {
  it('says the one generic thing for a wrong email or password', () => {
    expect(
      signInMessage(new ApiError(401, { error: 'Email or password is incorrect', code: 'UNAUTHORIZED' })),
    ).toBe('Email or password is incorrect.')
  })

  it('says how long to wait after too many attempts', () => {
    const limited = (retryAfter: string | null) =>
      signInMessage(new ApiError(429, { error: 'Too many', code: 'RATE_LIMITED' }, retryAfter))
    expect(limited('30')).toBe('Too many sign-in attempts. For your security, try again in 30 seconds.')
    expect(limited('600')).toBe('Too many sign-in attempts. For your security, try again in 10 minutes.')
    expect(limited(null)).toBe('Too many sign-in attempts. For your security, try again in a few minutes.')
  })

  it('passes on the worker message and lists the organisations to choose from', () => {
    const worker = 'Workers use the technician app; the dashboard is for admins and dispatchers'
    expect(signInMessage(new ApiError(403, { error: worker, code: 'FORBIDDEN' }))).toBe(worker)
    const several = new ApiError(409, {
      error: 'Choose an organisation',
      code: 'ORGANISATION_REQUIRED',
      organisations: [
        { id: 'o1', name: 'Acme North' },
        { id: 'o2', name: 'Acme South' },
      ],
    } as never)
    expect(organisationChoices(several)).toEqual([
      { id: 'o1', name: 'Acme North' },
      { id: 'o2', name: 'Acme South' },
    ])
    expect(organisationChoices(new ApiError(401, { error: 'no' }))).toBeNull()
  })
})
