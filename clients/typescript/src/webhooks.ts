// Verifies a webhook the service sent, as Standard Webhooks (https://www.standardwebhooks.com)
// defines it: `webhook-signature` holds one or more `v1,<base64 HMAC-SHA256>` of
// "<webhook-id>.<webhook-timestamp>.<raw body>", keyed with the base64 part of the `whsec_…` secret
// (two during a secret rotation: either may match); `webhook-timestamp` (Unix seconds) must be
// recent, so a captured delivery cannot be replayed later. WebCrypto only: Node 20+, Deno, Bun,
// browsers and edge runtimes alike.
import type { WebhookEvent } from './generated/api.js'

export type WebhookVerificationFailure =
  | 'MISSING_HEADERS'
  | 'INVALID_SECRET'
  | 'INVALID_TIMESTAMP'
  | 'TIMESTAMP_TOO_OLD'
  | 'TIMESTAMP_IN_FUTURE'
  | 'INVALID_SIGNATURE'
  | 'INVALID_BODY'

/** The delivery is not to be trusted: answer it with a 4xx and do not act on it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError'
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message)
  }
}

/** Node's `IncomingHttpHeaders`, a fetch `Headers`, or any record of header names to values. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds (default 300). */
  toleranceSeconds?: number
  /** The time to check against (default: now). */
  now?: Date
}

const encoder = new TextEncoder()

/**
 * Checks a delivery's signature and age, then answers its parsed JSON body (`event`, `timestamp`,
 * `data`); throws WebhookVerificationError otherwise. `rawBody` must be the bytes as received, before
 * any JSON parsing (re-serialising changes them). Deduplicate on the `webhook-id` header: a
 * redelivery keeps it.
 */
export async function verifyWebhook<T = WebhookEvent>(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<T> {
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError(
      'MISSING_HEADERS',
      'webhook-id, webhook-timestamp and webhook-signature are all required',
    )
  }

  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError('INVALID_TIMESTAMP', 'webhook-timestamp is not Unix seconds')
  }
  const tolerance = options.toleranceSeconds ?? 300
  const age = Math.floor((options.now ?? new Date()).getTime() / 1000) - Number(timestamp)
  if (age > tolerance) {
    throw new WebhookVerificationError('TIMESTAMP_TOO_OLD', `webhook-timestamp is ${age} s old`)
  }
  if (age < -tolerance) {
    throw new WebhookVerificationError('TIMESTAMP_IN_FUTURE', `webhook-timestamp is ${-age} s ahead`)
  }

  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), body)
  const key = await importKey(secret)
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',', 2)
    if (version !== 'v1' || !signature) continue
    const mac = base64Bytes(signature)
    // subtle.verify compares in constant time.
    if (mac && (await globalThis.crypto.subtle.verify('HMAC', key, mac, signed))) return parseBody<T>(body)
  }
  throw new WebhookVerificationError('INVALID_SIGNATURE', 'no webhook-signature matches the secret')
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]
  return Array.isArray(value) ? value.join(' ') : value
}

// (No CryptoKey annotation: it is a DOM type, which Node's own typings do not declare globally.)
async function importKey(secret: string) {
  const bytes = base64Bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret)
  if (!bytes || bytes.length === 0) {
    throw new WebhookVerificationError('INVALID_SECRET', 'the secret is not `whsec_` followed by base64')
  }
  return globalThis.crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ])
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined
  try {
    const binary = atob(text)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  } catch {
    return undefined
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a)
  joined.set(b, a.length)
  return joined
}

function parseBody<T>(body: Uint8Array): T {
  try {
    return JSON.parse(new TextDecoder().decode(body)) as T
  } catch {
    throw new WebhookVerificationError('INVALID_BODY', 'the signed body is not JSON')
  }
}
