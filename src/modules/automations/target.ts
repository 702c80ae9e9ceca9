// Where webhooks may go. A customer's URL must not reach into our own network: https only, and no
// private, loopback, link-local or otherwise non-public address — checked when an automation is
// saved and again, on the resolved address itself, when each request connects (DNS can change).
// WEBHOOK_ALLOW_PRIVATE=true lifts both rules for development and tests.
//
// "Non-public" follows the IANA IPv4 and IPv6 special-purpose address registries (ranges that are
// not globally reachable), plus multicast and everything IPv6 outside global unicast (2000::/3).
// An IPv6 address that carries an IPv4 address is judged by the IPv4 address it carries:
// IPv4-mapped (::ffff:a.b.c.d), NAT64's well-known prefix (64:ff9b::a.b.c.d) and 6to4
// (2002:aabb:ccdd::) reach that IPv4 address, so they pass exactly when it would. The deprecated
// IPv4-compatible (::a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d) forms are routed nowhere, so
// they never pass; neither does Teredo (2001::/32, inside 2001::/23, which IANA marks not globally
// reachable): a Teredo address carries its server's IPv4 address in bits 32-63 and its client's,
// inverted, in the last 32, but no webhook receiver lives behind one, so the whole block is refused
// rather than decoded. NAT64's local-use prefix 64:ff9b:1::/48 is not globally reachable either.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { validationError } from '../../http/errors.js'

const v4 = (dotted: string) => dotted.split('.').reduce((n, octet) => n * 256 + Number(octet), 0)

/** The 128 bits of a valid IPv6 address (any spelling, a trailing dotted quad included). */
function ipv6Bits(address: string): bigint {
  let text = address.toLowerCase()
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1]
  if (dotted) {
    const n = v4(dotted)
    text = `${text.slice(0, -dotted.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'))
  const left = groupsOf(head)
  const right = tail === undefined ? [] : groupsOf(tail)
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(Number.parseInt(group, 16)), 0n)
}

interface Range {
  /** The address's leading `prefix` bits must equal these. */
  network: bigint
  prefix: number
  /** What the range is, for the error message: `loopback, 127.0.0.0/8`. */
  label: string
}

function rangesOf(family: 4 | 6, table: ReadonlyArray<readonly [cidr: string, name: string]>): Range[] {
  const bits = family === 4 ? 32 : 128
  return table.map(([cidr, name]) => {
    const [network = '', prefix = ''] = cidr.split('/')
    const value = family === 4 ? BigInt(v4(network)) : ipv6Bits(network)
    return {
      network: value >> BigInt(bits - Number(prefix)),
      prefix: Number(prefix),
      label: `${name}, ${cidr}`,
    }
  })
}

const NON_PUBLIC_V4 = rangesOf(4, [
  ['0.0.0.0/8', '"this" network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
])

// Anything outside global unicast (2000::/3) is refused; these only name the common cases.
const NON_PUBLIC_V6 = rangesOf(6, [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'NAT64 local use'],
  ['100::/64', 'discard only'],
  ['2001::/23', 'IETF protocol assignments (Teredo, benchmarking, ORCHID)'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'deprecated site-local'],
  ['ff00::/8', 'multicast'],
])

const find = (ranges: Range[], address: bigint, bits: number) =>
  ranges.find((range) => address >> BigInt(bits - range.prefix) === range.network)?.label ?? null

const dottedOf = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
const ipv4Reason = (n: number) => find(NON_PUBLIC_V4, BigInt(n), 32)

function ipv6Reason(address: string): string | null {
  const bits = ipv6Bits(address)
  const top = (prefix: number) => bits >> BigInt(128 - prefix)
  const low32 = Number(bits & 0xffffffffn)
  // The forms that carry an IPv4 address: judged by it, and named with it.
  const carrying = (form: string, n: number, reason: string | null) =>
    reason && `${reason}; the ${form} of ${dottedOf(n)}`
  if (top(96) === 0xffffn) return carrying('IPv4-mapped form', low32, ipv4Reason(low32))
  if (top(96) === 0x64ff9bn << 64n) return carrying('NAT64 form', low32, ipv4Reason(low32))
  if (top(16) === 0x2002n) {
    const carried = Number((bits >> 80n) & 0xffffffffn)
    return carrying('6to4 form', carried, ipv4Reason(carried))
  }
  if (top(96) === 0n && bits > 1n) {
    return carrying('IPv4-compatible form', low32, 'deprecated and unroutable, ::/96')
  }
  if (top(96) === 0xffff0000n) {
    return carrying('IPv4-translated form', low32, 'unroutable, ::ffff:0:0:0/96')
  }
  return find(NON_PUBLIC_V6, bits, 128) ?? (top(3) === 1n ? null : 'not global unicast, outside 2000::/3')
}

/**
 * Why a webhook must not reach `address` (a literal IPv4 or IPv6 address, as a URL or DNS gives
 * it), or null when it is public. Anything that is not an address, or carries a zone (`%eth0`,
 * link-scoped by definition), is refused.
 */
export function nonPublicReason(address: string): string | null {
  const family = isIP(address)
  if (family === 4) return ipv4Reason(v4(address))
  if (family !== 6) return 'not an IP address'
  if (address.includes('%')) return 'scoped to a network interface (zone index)'
  return ipv6Reason(address)
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

/**
 * At creation and update: a literal address must be public (refused at once, no DNS involved); a
 * host name must resolve, and only to public addresses (checked again at every connection).
 */
export async function assertPublicTarget(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return
  const host = hostOf(url)
  const refuse = (what: string, reason: string) =>
    validationError(
      '/body/url',
      `${what} a non-public address (${reason}); ` +
        'webhooks must target the public internet (set WEBHOOK_ALLOW_PRIVATE=true in development)',
    )
  if (isIP(host)) {
    const reason = nonPublicReason(host)
    if (reason) throw refuse(`host ${host} is`, reason)
    return
  }
  let addresses: LookupAddress[]
  try {
    addresses = await resolveHost(host)
  } catch {
    throw validationError('/body/url', `host ${host} could not be resolved`)
  }
  for (const { address } of addresses) {
    const reason = nonPublicReason(address)
    if (reason) throw refuse(`host ${host} resolves to ${address},`, reason)
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
    for (const { address } of addresses) {
      const reason = nonPublicReason(address)
      if (reason) {
        const message = `${hostname} resolves to ${address}, a non-public address (${reason}); not delivered`
        return callback(new NonPublicTargetError(message), [])
      }
    }
    if (options.all) return callback(null, addresses)
    const first = addresses[0]
    if (!first) return callback(new Error(`${hostname} did not resolve`), [])
    callback(null, first.address, first.family)
  })
}
