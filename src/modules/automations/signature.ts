// Standard Webhooks signing (https://www.standardwebhooks.com): the receiver recomputes
// base64(HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")) with the secret it was given
// at creation and compares it with the `v1,` entries of `webhook-signature`.
import { createHmac, randomBytes } from 'node:crypto'

export const SECRET_PREFIX = 'whsec_'

/** A new signing secret: `whsec_` + 32 random bytes in base64, the format Standard Webhooks libraries read. */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`
}

/** What the list and get endpoints show of a secret: enough to tell two apart, useless to sign with. */
export function secretHint(secret: string): string {
  return `${secret.slice(0, SECRET_PREFIX.length + 4)}…`
}

export function sign(secret: string, webhookId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  const mac = createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64')
  return `v1,${mac}`
}

export interface SignedHeaders {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

/** The three Standard Webhooks headers; during a secret rotation both secrets sign (space-separated). */
export function signedHeaders(
  secrets: readonly string[],
  webhookId: string,
  body: string,
  now: Date = new Date(),
): SignedHeaders {
  const timestamp = Math.floor(now.getTime() / 1000)
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, webhookId, timestamp, body)).join(' '),
  }
}
