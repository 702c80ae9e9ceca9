// Where webhooks may go. A customer's URL must not reach into our own network: https only, and no
// private, loopback, link-local or otherwise non-public address — checked when an automation is
// saved and again, on the resolved address itself, when each request connects (DNS can change).
// WEBHOOK_ALLOW_PRIVATE=true lifts both rules for development and tests.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'
import { validationError } from '../../http/errors.js'

// Two lists: a BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules too, and the
// ::ffff:0:0/96 rule must only catch IPv6 spellings of mapped addresses.
const NON_PUBLIC_V4 = new BlockList()
const NON_PUBLIC_V6 = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC_V4.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['::ffff:0:0', 96], // IPv4-mapped in hex (dotted forms are checked as IPv4 below)
  ['64:ff9b::', 96], // NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC_V6.addSubnet(network, prefix, 'ipv6')
}

/** True for any address a webhook must not reach unless private targets are allowed. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return NON_PUBLIC_V4.check(address, 'ipv4')
  if (family !== 6) return true
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1]) return NON_PUBLIC_V4.check(mapped[1], 'ipv4')
  return NON_PUBLIC_V6.check(address, 'ipv6')
}

export const MAX_URL_LENGTH = 2048

/** The host of a URL as a bare name or address (`[::1]` → `::1`). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

/** Parses and checks a webhook URL's shape: absolute, https (or http when allowed), no credentials. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw validationError('/body/url', 'must be an absolute URL, such as https://example.com/webhooks')
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw validationError(
      '/body/url',
      allowPrivate
        ? 'must use https or http'
        : 'must use https (http is allowed only with WEBHOOK_ALLOW_PRIVATE=true)',
    )
  }
  if (url.username || url.password) {
    throw validationError('/body/url', 'must not contain credentials; verify the webhook signature instead')
  }
  if (url.hash) throw validationError('/body/url', 'must not contain a #fragment')
  // Stored and sent normalised (percent-encoded), which can be longer than what was typed.
  if (url.href.length > MAX_URL_LENGTH) {
    throw validationError('/body/url', `must be at most ${MAX_URL_LENGTH} characters once percent-encoded`)
  }
  return url
}

/** Every address `host` resolves to. */
export function resolveHost(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    )
  })
}

/** At creation and update: the URL's host must resolve, and only to public addresses. */
export async function assertPublicTarget(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return
  const host = hostOf(url)
  let addresses: string[]
  try {
    addresses = isIP(host) ? [host] : (await resolveHost(host)).map((entry) => entry.address)
  } catch {
    throw validationError('/body/url', `host ${host} could not be resolved`)
  }
  const blocked = addresses.find(isNonPublicAddress)
  if (blocked) {
    throw validationError(
      '/body/url',
      `host ${host} resolves to ${blocked}, a private, loopback or link-local address; ` +
        'webhooks must target the public internet (set WEBHOOK_ALLOW_PRIVATE=true in development)',
    )
  }
}

export class NonPublicTargetError extends Error {
  readonly code = 'ENONPUBLIC'
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/**
 * A `lookup` for sockets that refuses non-public answers, so the address checked is the address
 * connected to (no window for DNS rebinding between check and connect).
 */
export function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true, verbatim: true } as { all: true }, (error, addresses) => {
    if (error) return callback(error, [])
    const blocked = addresses.find((entry) => isNonPublicAddress(entry.address))
    if (blocked) {
      return callback(
        new NonPublicTargetError(
          `${hostname} resolves to ${blocked.address}, a non-public address; not delivered`,
        ),
        [],
      )
    }
    if (options.all) return callback(null, addresses)
    const first = addresses[0]
    if (!first) return callback(new Error(`${hostname} did not resolve`), [])
    callback(null, first.address, first.family)
  })
}
