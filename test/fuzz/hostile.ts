// Hostile values the fuzzer mixes into every part of a request: injection strings, path traversal,
// awkward unicode, control characters, wrong types, boundary numbers, deep nesting, huge strings.
import fc from 'fast-check'

export const SQL_STRINGS = [
  "' OR 1=1 --",
  "'; DROP TABLE jobs; --",
  '"; DROP TABLE api_keys; --',
  "1' UNION SELECT key_hash FROM api_keys --",
  "%' OR '1'='1",
  "\\'; SELECT pg_sleep(5); --",
  '1; DELETE FROM organisations',
  "Robert'); DROP TABLE customers;--",
  '$1',
  '?',
  ':id',
]

export const TRAVERSAL_STRINGS = [
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '....//....//etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  'file:///etc/passwd',
  '%252e%252e%252f',
]

export const UNICODE_STRINGS = [
  '🚐🔧', // astral
  '𝕳𝖊𝖑𝖑𝖔',
  'שלום עולם', // RTL
  'مرحبا',
  '\u202Eevil\u202C', // RTL override
  'e\u0301\u0302\u0303', // combining marks
  'Z̴̡̛͓a̸͎͝l̷̨̛g̶̣͝o̴͖͠',
  '\uFEFFbom',
  'zero\u200Bwidth',
  '\uFFFF\uFFFE',
  'Ａｂｃ１２３',
  '\u00A0\u2003\u3000', // whitespace that is not ASCII
  '\uD800', // lone high surrogate (JSON.stringify escapes it)
  '\uDC00x', // lone low surrogate
  '\uDBFF\uDFFF', // the last code point
]

export const CONTROL_STRINGS = [
  'a\u0000b', // NUL
  '\u0000',
  'line\r\nInjected: header',
  'tab\there',
  '\u0007\u0008\u001b[31mred',
  '\u007f',
]

export const MISC_STRINGS = [
  '',
  ' ',
  '   \t\n',
  '%s%s%s%n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent literally
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '{"$gt":""}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '1e309',
  '-0',
  '0x10',
  'true',
  '[]',
]

/** Long strings at the common limits and past them, in ASCII and in astral characters. */
const longString = (length: number) => fc.constantFrom('x'.repeat(length), '🚐'.repeat(length))

export const LONG_LENGTHS = [100, 101, 200, 201, 255, 256, 512, 513, 1000, 1001, 2048, 2049, 10_000, 10_001]
/** Under the 1 MiB body limit, but far past every field limit. */
export const HUGE_STRING = 'h'.repeat(900_000)
/** A body this size is over the 1 MiB limit (413). */
export const OVER_LIMIT_STRING = 'o'.repeat(1_100_000)

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SQL_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...TRAVERSAL_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...UNICODE_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...CONTROL_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...MISC_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...LONG_LENGTHS).chain(longString) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
)

const SOME_ID = '019ac6f0-5b7a-7c3d-9e1f-2a4b6c8d0e1f'

/**
 * Cursors a client could forge: our framing (base64url of `prefix|instant|id`) around parts we never
 * issue — dates that do not exist, years out of range, NUL and other controls, bytes that are not
 * UTF-8 once decoded, another kind's prefix, far too much of it.
 */
export const forgedCursor: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('v1', 'c1', 'e1', 'z9', ''),
    fc.constantFrom(
      new Date(Date.now() - 3_600_000).toISOString(),
      '2026-02-30T10:00:00.000Z',
      '2026-04-31T10:00:00.000Z',
      '2026-01-15T24:00:00.000Z',
      '2026-01-15T10:60:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '+275760-09-13T00:00:00.000Z',
      'NaN',
      '',
    ),
    fc.constantFrom<string | Buffer>(
      SOME_ID,
      `${SOME_ID}\u0000`,
      '\u0000',
      `${SOME_ID.slice(0, -1)}\u001b`,
      Buffer.from([0xed, 0xa0, 0x80]), // a lone surrogate in UTF-8: not UTF-8 at all
      Buffer.from([0xc0, 0xaf]), // an overlong "/"
      SOME_ID.toUpperCase(),
      'x',
      `${SOME_ID}|${SOME_ID}`,
      SOME_ID.repeat(10),
      "' OR 1=1 --",
    ),
  )
  .map(([prefix, at, id]) =>
    Buffer.concat([Buffer.from(`${prefix}|${at}|`), Buffer.from(id)]).toString('base64url'),
  )

/** Datetimes a query parameter could carry that do not exist or cannot be stored. */
export const hostileInstant = fc.constantFrom(
  '2026-02-30T00:00:00Z',
  '2026-01-15T24:00:00Z',
  '2026-12-31T23:59:60Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
)

/** Rarely: strings near the body limit. */
export const hugeString: fc.Arbitrary<string> = fc.constantFrom(HUGE_STRING, OVER_LIMIT_STRING)

/** Deeply nested arrays or objects. */
export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value }
  return value
}

/** Values of every JSON type, for a field that expects another one. */
export const wrongTypeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    0,
    -1,
    1.5,
    -0,
    2 ** 53 + 1,
    1e308,
    -1e308,
    Number.MIN_VALUE,
    true,
    false,
    null,
    [],
    {},
    '',
    '42',
    [1, 2, 3],
    { $gt: '' },
    { id: 'x' },
    [null],
  ),
  fc
    .constantFrom(33, 200, 1000)
    .chain((depth) => fc.constantFrom(nested(depth, 'array'), nested(depth, 'object'))),
  hostileString,
)

/** Boundary numbers around a schema's limits, plus absurd ones. */
export function boundaryNumbers(schema: { minimum?: number; maximum?: number; exclusiveMinimum?: number }) {
  const values: number[] = [0, -1, 1, 0.5, -0.000001, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 53, 1e308]
  for (const bound of [schema.minimum, schema.maximum, schema.exclusiveMinimum]) {
    if (bound === undefined) continue
    values.push(bound, bound - 1, bound + 1, bound - 1e-9, bound + 1e-9, bound + 0.5)
  }
  return fc.constantFrom(...values)
}

/** Query-string values as they appear on the wire (already percent-encoded, or deliberately not). */
export const rawQueryJunk = fc.constantFrom(
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80', // a UTF-8-encoded lone surrogate
  '%C0%AF', // overlong "/"
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2F',
  '+',
  '%20',
  '%FF%FE',
  '%F0%9F%9A%90',
  '%27%20OR%201%3D1%20--',
  '%00',
  'a%00b',
  '-1',
  '0',
  '1.5',
  '1e3',
  '99999999999999999999',
  'NaN',
  'Infinity',
  'true',
  '',
)
