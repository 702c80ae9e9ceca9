// The API's error bodies as pages use them: field errors next to fields, the rest over the form.
import { describe, expect, it } from 'vitest'
import { serverErrors } from '../ui/form'
import { ApiError, errorMessage } from './errors'

const validation = new ApiError(400, {
  error: 'name must be at least 1 character (and 2 more)',
  code: 'VALIDATION_ERROR',
  details: [
    { path: '/body/name', message: 'must be at least 1 character' },
    { path: '/body/scopes/1', message: 'must be equal to one of the allowed values' },
    { path: '/body/colour', message: 'unknown field "colour"' },
  ],
})

describe('ApiError', () => {
  it('keys field errors by the body field, first message wins', () => {
    expect(validation.fieldErrors()).toEqual({
      name: 'must be at least 1 character',
      scopes: 'must be equal to one of the allowed values',
      colour: 'unknown field "colour"',
    })
  })

  it('splits errors between the fields a form has and a banner for the rest', () => {
    expect(serverErrors(validation, ['name', 'scopes'])).toEqual({
      fields: { name: 'must be at least 1 character', scopes: 'must be equal to one of the allowed values' },
      form: 'name must be at least 1 character (and 2 more)',
    })
    const fieldsOnly = new ApiError(400, { error: 'x', details: [{ path: '/body/name', message: 'bad' }] })
    expect(serverErrors(fieldsOnly, ['name'])).toEqual({ fields: { name: 'bad' }, form: null })
    const conflict = new ApiError(409, { error: 'The key is revoked', code: 'CONFLICT' })
    expect(serverErrors(conflict, ['name'])).toEqual({ fields: {}, form: 'The key is revoked' })
    expect(serverErrors(null, ['name'])).toEqual({ fields: {}, form: null })
  })

  it('reads Retry-After, and has a code even without a body', () => {
    expect(new ApiError(429, { error: 'slow down', code: 'RATE_LIMITED' }, '42').retryAfterSeconds).toBe(42)
    expect(new ApiError(502, undefined).code).toBe('INTERNAL_ERROR')
    expect(errorMessage(new TypeError('Failed to fetch'))).toMatch(/Cannot reach the server/)
  })
})
