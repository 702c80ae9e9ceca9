// The headers of a fuzzed request: API keys in every condition and every kind of malformed
// Authorization, dashboard sessions (ADMIN, DISPATCHER, on a FREE plan, without or with a wrong CSRF
// token, a forged cookie), odd content types, transfer encodings and huge or hostile header values.
import fc from 'fast-check'
import type { World } from './world.js'

/** Authorization variants: a placeholder name (resolved against the world's keys) or a raw header. */
export const authArbitrary = fc.oneof(
  { weight: 80, arbitrary: fc.constant('key:admin') },
  { weight: 3, arbitrary: fc.constant('key:normalLimit') },
  {
    weight: 6,
    arbitrary: fc.constantFrom('key:readOnly', 'key:readWrite', 'key:revoked', 'key:expired', 'key:freePlan'),
  },
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      'session:admin',
      'session:dispatcher',
      'session:freePlan',
      'session:noCsrf',
      'session:wrongCsrf',
      'session:forged',
    ),
  },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'none',
      'raw:Bearer',
      'raw:Bearer ',
      'raw:Basic dXNlcjpwYXNz',
      'raw:Bearer svc_live_short',
      'raw:Bearer svc_test_0123456789abcdefghijklmnopqrstuvwxyz',
      'raw:Bearer svc_live_üüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüü',
      "raw:Bearer ' OR 1=1 --",
      'raw:Bearer ../../etc/passwd',
      `raw:Bearer ${'A'.repeat(20_000)}`,
      `raw:Bearer svc_live_${'A'.repeat(129)}`,
      'mangle:lowercase',
      'mangle:spaces',
      'mangle:noScheme',
      'mangle:extraChar',
      'mangle:truncated',
      'mangle:twice',
      'mangle:duplicate',
    ),
  },
)

export const contentTypeArbitrary = fc.oneof(
  { weight: 30, arbitrary: fc.constant(undefined) }, // the natural one: JSON when there is a body
  {
    weight: 3,
    arbitrary: fc.constantFrom<string | string[] | null>(
      null, // none at all
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/json;charset=UTF-16',
      'APPLICATION/JSON',
      'application/json ; foo=bar',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz',
      '',
      'application/jsonp',
      'application/vnd.api+json',
      'application/json, text/plain',
      ['application/json', 'text/plain'],
      'application/json; charset=utf-8; charset=latin1',
      `application/json; x=${'y'.repeat(10_000)}`,
    ),
  },
)

export const headersArbitrary = fc.oneof(
  { weight: 20, arbitrary: fc.constant({} as Record<string, string | string[]>) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Record<string, string | string[]>>(
      { 'transfer-encoding': 'chunked' },
      { 'transfer-encoding': 'gzip, chunked' },
      { 'transfer-encoding': 'identity' },
      { 'content-encoding': 'gzip' },
      { 'content-length': '1' },
      { 'content-length': '-1' },
      { 'x-request-id': 'x'.repeat(10_000) },
      { 'x-request-id': '' },
      { 'x-request-id': "' OR 1=1 --" },
      // Real HTTP delivers header bytes as latin1: é is as odd as an x-request-id gets on the wire.
      { 'x-request-id': 'café\u00ff' },
      { 'x-huge': 'h'.repeat(60_000) },
      { accept: 'text/html' },
      { accept: 'application/xml;q=1, */*;q=0' },
      { 'x-http-method-override': 'DELETE' },
      { 'x-forwarded-for': '127.0.0.1, ../../etc/passwd' },
      { cookie: 'session=../../etc/passwd' },
      { 'accept-charset': 'utf-16' },
    ),
  },
)

/** The cookie (and CSRF token) of a `session:` variant; other variants send none. */
export function sessionHeaders(world: World, auth: string): Record<string, string> {
  if (!auth.startsWith('session:')) return {}
  const variant = auth.slice(8)
  if (variant === 'forged') return { cookie: `fs_session=${'A'.repeat(43)}`, 'x-csrf-token': 'A'.repeat(43) }
  const session = world.sessions[variant === 'dispatcher' || variant === 'freePlan' ? variant : 'admin']
  const cookie = `fs_session=${session.cookie}`
  if (variant === 'noCsrf') return { cookie }
  if (variant === 'wrongCsrf') return { cookie, 'x-csrf-token': world.sessions.dispatcher.csrfToken }
  return { cookie, 'x-csrf-token': session.csrfToken }
}

export function authorization(world: World, auth: string): string | string[] | undefined {
  const admin = world.keys.admin
  if (auth === 'none' || auth.startsWith('session:')) return undefined
  if (auth.startsWith('key:')) return world.keys[auth.slice(4) as keyof World['keys']]
  if (auth.startsWith('raw:')) return auth.slice(4)
  switch (auth.slice(7)) {
    case 'lowercase':
      return admin.replace('Bearer', 'bearer')
    case 'spaces':
      return admin.replace('Bearer ', 'Bearer    ')
    case 'noScheme':
      return world.adminKey
    case 'extraChar':
      return `${admin}x`
    case 'truncated':
      return admin.slice(0, -1)
    case 'twice':
      return `${admin} ${world.adminKey}`
    default:
      return [admin, world.keys.readOnly]
  }
}
