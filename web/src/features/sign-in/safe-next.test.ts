import { describe, expect, it } from 'vitest'
import { safeNext } from './safe-next'

const ORIGIN = 'https://fieldservice.example'

describe('where signing in returns to', () => {
  it('follows a path of this app, with its query and hash', () => {
    expect(safeNext('/settings/api-keys', ORIGIN)).toBe('/settings/api-keys')
    expect(safeNext('/jobs?status=CREATED&page=2#top', ORIGIN)).toBe('/jobs?status=CREATED&page=2#top')
    expect(safeNext('/my?date=2026-12-07', ORIGIN)).toBe('/my?date=2026-12-07')
    expect(safeNext('/jobs/../team', ORIGIN)).toBe('/team')
  })

  it.each([
    null,
    '',
    'team',
    ' /team',
    '//evil.example/team',
    '/\\evil.example/team',
    '\\\\evil.example',
    '/%5Cevil.example/team',
    '/%5cevil.example',
    '/%2F/evil.example',
    '/%2f%2fevil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://evil.example/team',
    `${ORIGIN}/team`,
    '/%E0%A4%A',
  ])('goes home for %j', (next) => {
    expect(safeNext(next, ORIGIN)).toBe('/')
  })
})
