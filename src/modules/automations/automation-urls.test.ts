import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { nonPublicReason } from './target.js'

// Public literals need no DNS, so these tests run offline.
const PUBLIC_URL = 'https://[2606:4700::1111]/hook'

// The private-address guard, spelling by spelling: [URL as typed, host as the URL parser writes
// it, why it is refused]. Odd IPv4 spellings are normalised by the URL parser before the check;
// IPv6 forms that carry an IPv4 address are judged by the address they carry.
const LOOPBACK = 'loopback, 127.0.0.0/8'
const REFUSED_SPELLINGS: [url: string, host: string, reason: string][] = [
  ['https://127.0.0.1/', '127.0.0.1', LOOPBACK],
  ['https://127.1/', '127.0.0.1', LOOPBACK],
  ['https://2130706433/', '127.0.0.1', LOOPBACK],
  ['https://0177.0.0.1/', '127.0.0.1', LOOPBACK],
  ['https://0x7f.1/', '127.0.0.1', LOOPBACK],
  ['https://0x7f000001/', '127.0.0.1', LOOPBACK],
  ['https://017700000001/', '127.0.0.1', LOOPBACK],
  ['https://0x7f.0x00.0x00.0x01/', '127.0.0.1', LOOPBACK],
  ['https://127.000.000.001/', '127.0.0.1', LOOPBACK],
  ['https://00000177.0.0.1/', '127.0.0.1', LOOPBACK],
  ['https://127.0.0.1./', '127.0.0.1', LOOPBACK],
  ['https://%31%32%37.0.0.1/', '127.0.0.1', LOOPBACK],
  ['https://\uff11\uff12\uff17.0.0.1/', '127.0.0.1', LOOPBACK], // full-width digits
  ['https://127\u30020\u30020\u30021/', '127.0.0.1', LOOPBACK], // ideographic full stops
  ['https://127.255.255.254:8443/hook', '127.255.255.254', LOOPBACK],
  ['https://0/', '0.0.0.0', '"this" network, 0.0.0.0/8'],
  ['https://0.0.0.0/', '0.0.0.0', '"this" network, 0.0.0.0/8'],
  ['https://10.0.0.1/', '10.0.0.1', 'private, 10.0.0.0/8'],
  ['https://012.1/', '10.0.0.1', 'private, 10.0.0.0/8'],
  ['https://0xa.0xfe.0x1.0x2/', '10.254.1.2', 'private, 10.0.0.0/8'],
  ['https://172.16.0.1/', '172.16.0.1', 'private, 172.16.0.0/12'],
  ['https://172.31.255.255/', '172.31.255.255', 'private, 172.16.0.0/12'],
  ['https://0xac100001/', '172.16.0.1', 'private, 172.16.0.0/12'],
  ['https://192.168.1.1:8443/hook', '192.168.1.1', 'private, 192.168.0.0/16'],
  ['https://3232235777/', '192.168.1.1', 'private, 192.168.0.0/16'],
  ['https://169.254.169.254/latest/meta-data/', '169.254.169.254', 'link-local, 169.254.0.0/16'],
  ['https://0xa9fea9fe/', '169.254.169.254', 'link-local, 169.254.0.0/16'],
  ['https://100.64.0.1/', '100.64.0.1', 'carrier-grade NAT, 100.64.0.0/10'],
  ['https://100.127.255.254/', '100.127.255.254', 'carrier-grade NAT, 100.64.0.0/10'],
  ['https://192.0.0.9/', '192.0.0.9', 'IETF protocol assignments, 192.0.0.0/24'],
  ['https://192.0.2.1/', '192.0.2.1', 'documentation, 192.0.2.0/24'],
  ['https://198.18.0.1/', '198.18.0.1', 'benchmarking, 198.18.0.0/15'],
  ['https://198.19.255.255/', '198.19.255.255', 'benchmarking, 198.18.0.0/15'],
  ['https://198.51.100.7/', '198.51.100.7', 'documentation, 198.51.100.0/24'],
  ['https://203.0.113.9/', '203.0.113.9', 'documentation, 203.0.113.0/24'],
  ['https://192.88.99.1/', '192.88.99.1', 'deprecated 6to4 relay anycast, 192.88.99.0/24'],
  ['https://224.0.0.1/', '224.0.0.1', 'multicast, 224.0.0.0/4'],
  ['https://239.255.255.250/', '239.255.255.250', 'multicast, 224.0.0.0/4'],
  ['https://240.0.0.1/', '240.0.0.1', 'reserved, 240.0.0.0/4'],
  ['https://255.255.255.255/', '255.255.255.255', 'reserved, 240.0.0.0/4'],
  ['https://4294967295/', '255.255.255.255', 'reserved, 240.0.0.0/4'],
  ['https://[::1]/', '::1', 'loopback, ::1/128'],
  ['https://[0:0:0:0:0:0:0:1]/', '::1', 'loopback, ::1/128'],
  ['https://[::]/', '::', 'unspecified, ::/128'],
  // IPv4-mapped: the URL parser writes them in hex.
  ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1', `${LOOPBACK}; the IPv4-mapped form of 127.0.0.1`],
  ['https://[::ffff:7f00:1]/', '::ffff:7f00:1', `${LOOPBACK}; the IPv4-mapped form of 127.0.0.1`],
  ['https://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1', `${LOOPBACK}; the IPv4-mapped form`],
  ['https://[::FFFF:7F00:0001]/', '::ffff:7f00:1', `${LOOPBACK}; the IPv4-mapped form`],
  ['https://[::ffff:10.0.0.1]/', '::ffff:a00:1', 'private, 10.0.0.0/8; the IPv4-mapped form of 10.0.0.1'],
  ['https://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe', 'link-local, 169.254.0.0/16; the IPv4-mapped'],
  ['https://[::ffff:0.0.0.0]/', '::ffff:0:0', '"this" network, 0.0.0.0/8; the IPv4-mapped form'],
  ['https://[::ffff:ffff:ffff]/', '::ffff:ffff:ffff', 'reserved, 240.0.0.0/4; the IPv4-mapped form'],
  // IPv4-compatible (deprecated) and IPv4-translated: routed nowhere, refused whatever they carry.
  [
    'https://[::127.0.0.1]/',
    '::7f00:1',
    'deprecated and unroutable, ::/96; the IPv4-compatible form of 127.0.0.1',
  ],
  ['https://[::7f00:1]/', '::7f00:1', 'deprecated and unroutable, ::/96'],
  [
    'https://[::10.0.0.1]/',
    '::a00:1',
    'deprecated and unroutable, ::/96; the IPv4-compatible form of 10.0.0.1',
  ],
  [
    'https://[::8.8.8.8]/',
    '::808:808',
    'deprecated and unroutable, ::/96; the IPv4-compatible form of 8.8.8.8',
  ],
  [
    'https://[::ffff:0:7f00:1]/',
    '::ffff:0:7f00:1',
    'unroutable, ::ffff:0:0:0/96; the IPv4-translated form of 127.0.0.1',
  ],
  ['https://[::ffff:0:127.0.0.1]/', '::ffff:0:7f00:1', 'unroutable, ::ffff:0:0:0/96'],
  ['https://[::ffff:0:8.8.8.8]/', '::ffff:0:808:808', 'unroutable, ::ffff:0:0:0/96'],
  // 6to4: the IPv4 address in bits 16-47.
  ['https://[2002:7f00:1::]/', '2002:7f00:1::', `${LOOPBACK}; the 6to4 form of 127.0.0.1`],
  ['https://[2002:7f00:0001::1]/', '2002:7f00:1::1', `${LOOPBACK}; the 6to4 form of 127.0.0.1`],
  ['https://[2002:a00:1::]/', '2002:a00:1::', 'private, 10.0.0.0/8; the 6to4 form of 10.0.0.1'],
  ['https://[2002:c0a8:101::]/', '2002:c0a8:101::', 'private, 192.168.0.0/16; the 6to4 form of 192.168.1.1'],
  ['https://[2002:a9fe:a9fe:1:2:3:4:5]/', '2002:a9fe:a9fe:1:2:3:4:5', 'link-local, 169.254.0.0/16; the 6to4'],
  ['https://[2002::]/', '2002::', '"this" network, 0.0.0.0/8; the 6to4 form of 0.0.0.0'],
  // NAT64: the well-known prefix carries the IPv4 address in its last 32 bits.
  ['https://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1', `${LOOPBACK}; the NAT64 form of 127.0.0.1`],
  ['https://[64:ff9b::127.0.0.1]/', '64:ff9b::7f00:1', `${LOOPBACK}; the NAT64 form of 127.0.0.1`],
  ['https://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe', 'link-local, 169.254.0.0/16; the NAT64 form'],
  ['https://[64:ff9b::10.1.2.3]/', '64:ff9b::a01:203', 'private, 10.0.0.0/8; the NAT64 form of 10.1.2.3'],
  ['https://[64:ff9b:1::1]/', '64:ff9b:1::1', 'NAT64 local use, 64:ff9b:1::/48'],
  ['https://[64:ff9b:1::7f00:1]/', '64:ff9b:1::7f00:1', 'NAT64 local use, 64:ff9b:1::/48'],
  ['https://[64:ff9b:1:ffff::8.8.8.8]/', '64:ff9b:1:ffff::808:808', 'NAT64 local use, 64:ff9b:1::/48'],
  // Teredo (2001::/32) and the rest of 2001::/23: refused whole.
  ['https://[2001::1]/', '2001::1', 'IETF protocol assignments (Teredo, benchmarking, ORCHID), 2001::/23'],
  [
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'IETF protocol',
  ],
  ['https://[2001:0:7f00:1::80ff:fffe]/', '2001:0:7f00:1::80ff:fffe', 'IETF protocol assignments'],
  ['https://[2001:2::1]/', '2001:2::1', 'IETF protocol assignments'],
  ['https://[2001:1ff:ffff::1]/', '2001:1ff:ffff::1', 'IETF protocol assignments'],
  ['https://[2001:db8::1]/', '2001:db8::1', 'documentation, 2001:db8::/32'],
  ['https://[3fff::1]/', '3fff::1', 'documentation, 3fff::/20'],
  ['https://[100::1]/', '100::1', 'discard only, 100::/64'],
  ['https://[fe80::1]/', 'fe80::1', 'link-local, fe80::/10'],
  ['https://[febf:ffff::1]/', 'febf:ffff::1', 'link-local, fe80::/10'],
  ['https://[fec0::1]/', 'fec0::1', 'deprecated site-local, fec0::/10'],
  ['https://[fc00::1]/', 'fc00::1', 'unique local, fc00::/7'],
  ['https://[fd12:3456:789a::1]/', 'fd12:3456:789a::1', 'unique local, fc00::/7'],
  ['https://[ff02::1]/', 'ff02::1', 'multicast, ff00::/8'],
  ['https://[ff05::1:3]/', 'ff05::1:3', 'multicast, ff00::/8'],
  ['https://[5f00::1]/', '5f00::1', 'segment routing, 5f00::/16'],
  ['https://[4000::1]/', '4000::1', 'not global unicast, outside 2000::/3'],
  ['https://[1::1]/', '1::1', 'not global unicast, outside 2000::/3'],
]

// Spellings the URL parser rejects: zones, unbracketed IPv6, out-of-range numbers.
const UNPARSABLE_SPELLINGS = [
  'https://[fe80::1%25eth0]/',
  'https://[fe80::1%eth0]/',
  'https://::1/',
  'https://[::1/',
  'https://[127.0.0.1]/',
  'https://4294967296/',
  'https://0x100000000/',
  'https://256.0.0.1/',
  'https://1.2.3.4.5/',
  'https://[::ffff:1.2.3]/',
  'https://[1:2:3:4:5:6:7:8:9]/',
]

const PUBLIC_SPELLINGS: [url: string, host: string][] = [
  ['https://8.8.8.8/', '8.8.8.8'],
  ['https://134744072/', '8.8.8.8'],
  ['https://0x8.0x8.0x8.0x8/', '8.8.8.8'],
  ['https://010.010.010.010/', '8.8.8.8'],
  ['https://93.184.216.34/hook', '93.184.216.34'],
  ['https://172.32.0.1/', '172.32.0.1'],
  ['https://100.128.0.1/', '100.128.0.1'],
  ['https://169.255.0.1/', '169.255.0.1'],
  ['https://192.0.3.1/', '192.0.3.1'],
  ['https://223.255.255.254/', '223.255.255.254'],
  ['https://[::ffff:8.8.8.8]/', '[::ffff:808:808]'],
  ['https://[64:ff9b::8.8.8.8]/', '[64:ff9b::808:808]'],
  ['https://[2002:808:808::1]/', '[2002:808:808::1]'],
  ['https://[2606:4700::1111]/hook', '[2606:4700::1111]'],
  ['https://[2001:4860:4860::8888]/', '[2001:4860:4860::8888]'],
  ['https://[2001:200::1]/', '[2001:200::1]'],
  ['https://[2620:4f:8000::1]/', '[2620:4f:8000::1]'],
]

// A resolver's answers are not normalised by a URL parser: dotted tails, upper case, zones.
describe('the guard on resolver answers', () => {
  it.each([
    ['::ffff:127.0.0.1', 'loopback, 127.0.0.0/8; the IPv4-mapped form of 127.0.0.1'],
    ['::FFFF:7F00:1', 'loopback, 127.0.0.0/8; the IPv4-mapped form of 127.0.0.1'],
    ['0:0:0:0:0:0:0:1', 'loopback, ::1/128'],
    ['::127.0.0.1', 'deprecated and unroutable, ::/96; the IPv4-compatible form of 127.0.0.1'],
    ['2002:7F00:0001:0:0:0:0:0', 'loopback, 127.0.0.0/8; the 6to4 form of 127.0.0.1'],
    ['64:ff9b::192.168.0.1', 'private, 192.168.0.0/16; the NAT64 form of 192.168.0.1'],
    ['fe80::1%eth0', 'scoped to a network interface (zone index)'],
    ['2606:4700::1111%1', 'scoped to a network interface (zone index)'],
    ['localhost', 'not an IP address'],
    ['8.8.8.8', null],
    ['::ffff:8.8.8.8', null],
    ['64:ff9b::8.8.8.8', null],
    ['2a00:1450:4001:82b::200e', null],
  ])('%s → %s', (address, reason) => {
    expect(nonPublicReason(address)).toBe(reason)
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: automation input, URL policy and access`, () => {
    // `dev` allows private targets (the test default); `prod` is the production policy.
    let dev: TestContext
    let prod: TestContext
    beforeAll(async () => {
      dev = await createTestApp(dialect)
      prod = await createTestApp(dialect, { webhookAllowPrivate: false })
    })
    afterAll(async () => {
      await dev.close()
      await prod.close()
    })

    async function adminOf(t: TestContext) {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const total = async () => (await admin.get('/automations')).body.data.pagination.total as number
      const create = async () => {
        const response = await admin.post('/automations', {
          event: 'JOB_CREATED',
          url: 'http://127.0.0.1:1/x',
        })
        expect(response.status).toBe(201)
        return response.body.data.automation
      }
      return { tenant, admin, total, create }
    }

    const valid = { event: 'JOB_COMPLETED', url: 'https://erp.example.com/hooks' }
    it.each([
      ['a missing event', { url: valid.url }, '/body/event'],
      ['an unknown event', { ...valid, event: 'JOB_EXPLODED' }, '/body/event'],
      ['a lower-case event', { ...valid, event: 'job_completed' }, '/body/event'],
      ['a missing url', { event: valid.event }, '/body/url'],
      ['an empty url', { ...valid, url: '' }, '/body/url'],
      ['a relative url', { ...valid, url: '/hooks' }, '/body/url'],
      ['a url without a scheme', { ...valid, url: 'erp.example.com/hooks' }, '/body/url'],
      ['a non-http scheme', { ...valid, url: 'ftp://erp.example.com/hooks' }, '/body/url'],
      [
        'a url over 2048 characters',
        { ...valid, url: `https://example.com/${'a'.repeat(2030)}` },
        '/body/url',
      ],
      ['credentials in the url', { ...valid, url: 'https://user:pass@example.com/hooks' }, '/body/url'],
      ['a user name in the url', { ...valid, url: 'https://user@example.com/hooks' }, '/body/url'],
      ['a #fragment', { ...valid, url: 'https://example.com/hooks#part' }, '/body/url'],
      ['an unknown field', { ...valid, secret: 'whsec_mine' }, '/body/secret'],
      ['an empty name', { ...valid, name: '' }, '/body/name'],
      ['a blank name', { ...valid, name: '   ' }, '/body/name'],
      ['a name over 200 characters', { ...valid, name: 'x'.repeat(201) }, '/body/name'],
      ['a numeric name', { ...valid, name: 42 }, '/body/name'],
      ['a numeric url', { ...valid, url: 42 }, '/body/url'],
      ['a string isActive', { ...valid, isActive: 'true' }, '/body/isActive'],
      ['a null isActive', { ...valid, isActive: null }, '/body/isActive'],
      ['an unknown action', { ...valid, action: 'SEND_EMAIL' }, '/body/action'],
    ])('refuses %s with 400 and creates nothing', async (_case, body, path) => {
      const { admin, total } = await adminOf(dev)
      const response = await admin.post('/automations', body)
      expect(response.status, JSON.stringify(response.body)).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect(response.body.error).toEqual(expect.any(String))
      expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path)
      expect(await total()).toBe(0)
    })

    it('refuses a body that is not an object, and no body at all', async () => {
      const { admin, total } = await adminOf(dev)
      // A JSON string or array is not an object; a text/plain string is 415, not this test's business.
      for (const body of [[], null, ['https://example.com']]) {
        const response = await admin.post('/automations', body)
        expect(response.status, JSON.stringify(body)).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
      }
      expect((await admin.post('/automations')).status).toBe(400)
      expect(await total()).toBe(0)
    })

    it('accepts http and loopback targets when private targets are allowed', async () => {
      const { admin } = await adminOf(dev)
      const response = await admin.post('/automations', { event: 'JOB_CREATED', url: 'http://127.0.0.1:1/x' })
      expect(response.status).toBe(201)
      expect(response.body.data.automation.url).toBe('http://127.0.0.1:1/x')
    })

    it('refuses http when private targets are not allowed', async () => {
      const { admin, total } = await adminOf(prod)
      const response = await admin.post('/automations', { ...valid, url: 'http://93.184.216.34/hook' })
      expect(response.status).toBe(400)
      expect(response.body.details).toEqual([
        { path: '/body/url', message: expect.stringContaining('https') },
      ])
      expect(await total()).toBe(0)
    })

    describe('the address table', () => {
      let admin: ReturnType<typeof adminClient>
      let total: () => Promise<number>
      beforeAll(async () => {
        ;({ admin, total } = await adminOf(prod))
      })

      it.each(REFUSED_SPELLINGS)('refuses %s at creation, naming %s', async (url, host, reason) => {
        const before = await total()
        const response = await admin.post('/automations', { ...valid, url })
        expect(response.status, JSON.stringify(response.body)).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
        const [detail] = response.body.details
        expect(detail.path).toBe('/body/url')
        expect(detail.message).toContain(`host ${host} is a non-public address (${reason}`)
        expect(response.body.error).toContain(detail.message)
        expect(await total()).toBe(before)
      })

      it.each(UNPARSABLE_SPELLINGS)('refuses %s as no URL at all', async (url) => {
        const before = await total()
        const response = await admin.post('/automations', { ...valid, url })
        expect(response.status, JSON.stringify(response.body)).toBe(400)
        expect(response.body.details).toEqual([
          { path: '/body/url', message: expect.stringContaining('must be an absolute URL') },
        ])
        expect(await total()).toBe(before)
      })

      it.each(PUBLIC_SPELLINGS)('accepts %s, the public address %s', async (url, host) => {
        const response = await admin.post('/automations', { ...valid, url })
        expect(response.status, JSON.stringify(response.body)).toBe(201)
        expect(new URL(response.body.data.automation.url).hostname).toBe(host)
      })

      it('accepts every refused spelling when private targets are allowed', async () => {
        const { admin: devAdmin, total: devTotal } = await adminOf(dev)
        for (const [url] of REFUSED_SPELLINGS) {
          expect((await devAdmin.post('/automations', { ...valid, url })).status, url).toBe(201)
        }
        expect(await devTotal()).toBe(REFUSED_SPELLINGS.length)
      })
    })

    it('refuses a host name that resolves to a non-public address, naming the address', async () => {
      const { admin, total } = await adminOf(prod)
      const response = await admin.post('/automations', { ...valid, url: 'https://localhost/' })
      expect(response.status).toBe(400)
      expect(response.body.details[0].message).toMatch(
        /^host localhost resolves to (127\.0\.0\.1|::1), a non-public address \(loopback/,
      )
      expect(await total()).toBe(0)
    })

    it('refuses a host that does not resolve', async () => {
      const { admin, total } = await adminOf(prod)
      const response = await admin.post('/automations', { ...valid, url: 'https://nonexistent.invalid/hook' })
      expect(response.status).toBe(400)
      expect(response.body.details).toEqual([
        { path: '/body/url', message: 'host nonexistent.invalid could not be resolved' },
      ])
      expect(await total()).toBe(0)
    })

    it.each(['https://93.184.216.34/hook', 'https://8.8.8.8:8443/events', 'https://[2606:4700::1111]/hook'])(
      'accepts the public address in %s',
      async (url) => {
        const { admin, total } = await adminOf(prod)
        const response = await admin.post('/automations', { ...valid, url })
        expect(response.status, JSON.stringify(response.body)).toBe(201)
        expect(response.body.data.automation.url).toBe(url)
        expect(await total()).toBe(1)
      },
    )

    it('refuses to PATCH a public URL to a private one, and changes nothing', async () => {
      const { admin, total } = await adminOf(prod)
      const created = await admin.post('/automations', { ...valid, url: PUBLIC_URL })
      expect(created.status).toBe(201)
      const automation = created.body.data.automation
      expect(automation.url).toBe(PUBLIC_URL)
      for (const url of ['https://10.0.0.1/hook', 'http://93.184.216.34/hook', 'https://localhost/', 'x']) {
        const refused = await admin.patch(`/automations/${automation.id}`, { url, name: 'Changed' })
        expect(refused.status, url).toBe(400)
        expect(refused.body.code).toBe('VALIDATION_ERROR')
        expect(refused.body.details[0].path).toBe('/body/url')
      }
      const after = await admin.get(`/automations/${automation.id}`)
      expect(after.body.data.automation).toEqual(automation)
      expect(await total()).toBe(1)
      // Changing other fields needs no URL check and still works.
      const renamed = await admin.patch(`/automations/${automation.id}`, { name: 'Renamed' })
      expect(renamed.status).toBe(200)
      expect(renamed.body.data.automation.url).toBe(PUBLIC_URL)
    })
    it("answers 404 for unknown ids and for another organisation's automation, and changes nothing", async () => {
      const mine = await adminOf(dev)
      const theirs = await adminOf(dev)
      const automation = await theirs.create()
      for (const id of [randomUUID(), 'not-an-id', automation.id]) {
        for (const [method, url, body] of [
          ['get', `/automations/${id}`, undefined],
          ['patch', `/automations/${id}`, { name: 'Hijacked', isActive: false }],
          ['delete', `/automations/${id}`, undefined],
          ['post', `/automations/${id}/activate`, undefined],
          ['post', `/automations/${id}/deactivate`, undefined],
          ['post', `/automations/${id}/rotate-secret`, {}],
          ['get', `/automations/${id}/executions`, undefined],
          ['get', `/automations/${id}/executions/${randomUUID()}`, undefined],
          ['post', `/automations/${id}/executions/${randomUUID()}/redeliver`, undefined],
        ] as const) {
          const response = await (
            mine.admin[method] as (u: string, b?: unknown) => ReturnType<typeof mine.admin.get>
          )(url, body)
          expect(response.status, `${method} ${url}`).toBe(404)
          expect(response.body.code).toBe('NOT_FOUND')
        }
      }
      expect((await mine.admin.get('/automations')).body.data.pagination.total).toBe(0)
      const still = await theirs.admin.get(`/automations/${automation.id}`)
      expect(still.status).toBe(200)
      expect(still.body.data.automation).toEqual(automation)
    })

    it('refuses keys without the admin scope (403) and requests without a key (401)', async () => {
      const { tenant, create } = await adminOf(dev)
      const automation = await create()
      const readWrite = await createKey(dev, tenant.organisationId, { scopes: ['read', 'write'] })
      const id = automation.id
      const routes = [
        ['GET', '/automations'],
        ['POST', '/automations'],
        ['GET', `/automations/${id}`],
        ['PATCH', `/automations/${id}`],
        ['DELETE', `/automations/${id}`],
        ['POST', `/automations/${id}/activate`],
        ['POST', `/automations/${id}/deactivate`],
        ['POST', `/automations/${id}/rotate-secret`],
        ['GET', '/executions'],
        ['GET', `/automations/${id}/executions`],
        ['GET', `/automations/${id}/executions/${randomUUID()}`],
        ['POST', `/automations/${id}/executions/${randomUUID()}/redeliver`],
      ] as const
      for (const [method, url] of routes) {
        const payload = method === 'POST' || method === 'PATCH' ? { payload: {} } : {}
        const forbidden = await dev.app.inject({
          method,
          url: `/v1/admin${url}`,
          headers: readWrite.headers,
          ...payload,
        })
        expect(forbidden.statusCode, `${method} ${url}`).toBe(403)
        expect(forbidden.json().code).toBe('FORBIDDEN')
        const anonymous = await dev.app.inject({ method, url: `/v1/admin${url}`, ...payload })
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401)
      }
      const still = await adminClient(dev, tenant.headers).get(`/automations/${id}`)
      expect(still.body.data.automation).toEqual(automation)
    })
  })
}
