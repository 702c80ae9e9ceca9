// The client's verifyWebhook cross-checked with the `standardwebhooks` reference library: it accepts
// what the library signs, refuses what the library refuses, and agrees with the service's own signer.
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src/index.js'
import { signedHeaders } from '../../src/modules/automations/signature.js'

const secret = `whsec_${randomBytes(32).toString('base64')}`
const body = JSON.stringify({
  event: 'JOB_COMPLETED',
  timestamp: '2026-11-23T10:41:07.512Z',
  data: { jobId: 'j1', title: 'Boiler', status: 'COMPLETED', customerId: null, assignedUserId: 'u1' },
})

/** The headers the reference library produces for `payload` signed at `at`. */
function librarySigned(at: Date, payload = body, key = secret) {
  const id = `msg_${randomBytes(6).toString('hex')}`
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign(id, at, payload),
  }
}

const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) => (error instanceof WebhookVerificationError ? error.reason : error),
  )

describe('verifyWebhook', () => {
  it('accepts what the Standard Webhooks library signs, and what the service signs', async () => {
    const headers = librarySigned(new Date())
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body))
    expect(await verifyWebhook(secret, headers, body)).toEqual(JSON.parse(body))
    expect(await verifyWebhook(secret, new Headers(headers), new TextEncoder().encode(body))).toEqual(
      JSON.parse(body),
    )
    const ours = signedHeaders([secret], 'msg_1', body)
    expect(await verifyWebhook(secret, { ...ours }, body)).toEqual(JSON.parse(body))
    expect(new Webhook(secret).verify(body, { ...ours })).toEqual(JSON.parse(body))
  })

  it('accepts either signature during a secret rotation', async () => {
    const next = `whsec_${randomBytes(32).toString('base64')}`
    const both = signedHeaders([next, secret], 'msg_2', body)
    expect(both['webhook-signature'].split(' ')).toHaveLength(2)
    expect(await reasonOf(verifyWebhook(secret, { ...both }, body))).toBe('accepted')
    expect(await reasonOf(verifyWebhook(next, { ...both }, body))).toBe('accepted')
    const third = `whsec_${randomBytes(32).toString('base64')}`
    expect(await reasonOf(verifyWebhook(third, { ...both }, body))).toBe('INVALID_SIGNATURE')
  })

  it('refuses what the library refuses: a changed body, id or timestamp, a stale or future timestamp', async () => {
    const now = new Date()
    const headers = librarySigned(now)
    const cases: [string, Record<string, string>, string, string][] = [
      ['body', headers, body.replace('Boiler', 'Boilers'), 'INVALID_SIGNATURE'],
      ['id', { ...headers, 'webhook-id': 'msg_other' }, body, 'INVALID_SIGNATURE'],
      [
        'timestamp',
        { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) },
        body,
        'INVALID_SIGNATURE',
      ],
      ['age', librarySigned(new Date(now.getTime() - 6 * 60_000)), body, 'TIMESTAMP_TOO_OLD'],
      ['future', librarySigned(new Date(now.getTime() + 6 * 60_000)), body, 'TIMESTAMP_IN_FUTURE'],
      [
        'version',
        { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') },
        body,
        'INVALID_SIGNATURE',
      ],
    ]
    for (const [what, h, b, reason] of cases) {
      expect(() => new Webhook(secret).verify(b, h), what).toThrow()
      expect(await reasonOf(verifyWebhook(secret, h, b)), what).toBe(reason)
    }
  })

  it('honours toleranceSeconds and now', async () => {
    const signedAt = new Date('2026-11-23T10:00:00Z')
    const headers = librarySigned(signedAt)
    const at = (seconds: number) => new Date(signedAt.getTime() + seconds * 1000)
    expect(await reasonOf(verifyWebhook(secret, headers, body, { now: at(300) }))).toBe('accepted')
    expect(await reasonOf(verifyWebhook(secret, headers, body, { now: at(301) }))).toBe('TIMESTAMP_TOO_OLD')
    expect(await reasonOf(verifyWebhook(secret, headers, body, { now: at(30), toleranceSeconds: 10 }))).toBe(
      'TIMESTAMP_TOO_OLD',
    )
    expect(await reasonOf(verifyWebhook(secret, headers, body, { now: at(-11), toleranceSeconds: 10 }))).toBe(
      'TIMESTAMP_IN_FUTURE',
    )
  })

  it('names what is missing or malformed', async () => {
    const headers = librarySigned(new Date())
    const { 'webhook-signature': _, ...unsigned } = headers
    expect(await reasonOf(verifyWebhook(secret, unsigned, body))).toBe('MISSING_HEADERS')
    expect(await reasonOf(verifyWebhook(secret, { ...headers, 'webhook-timestamp': '12e3' }, body))).toBe(
      'INVALID_TIMESTAMP',
    )
    expect(await reasonOf(verifyWebhook('whsec_not base64!', headers, body))).toBe('INVALID_SECRET')
    const text = 'not json'
    expect(await reasonOf(verifyWebhook(secret, librarySigned(new Date(), text), text))).toBe('INVALID_BODY')
  })
})
