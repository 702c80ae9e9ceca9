// Address lookup through the geocoder the operator runs or subscribes to (GEOCODER_URL): Nominatim
// (`/search?format=jsonv2&q=…&limit=5`) or Photon (`/api?q=…&limit=5`). The format is GEOCODER_FORMAT
// when set; otherwise Nominatim's path is asked first and Photon's when that answers no list, and the
// one that worked is remembered. Answers are cached in memory for a while (people type the same
// prefixes), lookups that reach the geocoder are limited per organisation (a public geocoder's usage
// policy asks for little), and one that takes longer than 3 s, fails or answers something unreadable
// is GEOCODER_UNAVAILABLE — never a 500.
import { AppError } from '../../http/errors.js'
import { readLimitedText } from '../../http/read-limited.js'
import { formatOf, type GeocodeMatch, type GeocoderFormat, readMatches } from './providers.js'

export const GEOCODER_TIMEOUT_MS = 3000
export const GEOCODER_RESULTS = 5
/** Lookups one organisation may send to the geocoder per minute (cached answers are free). */
export const GEOCODER_LOOKUPS_PER_MINUTE = 60
const CACHE_TTL_MS = 10 * 60_000
const CACHE_ENTRIES = 1000
/** Geocoder answers are a few KB; a bigger one is not one. */
const MAX_BODY_BYTES = 512 * 1024

export interface GeocoderOptions {
  url: string
  /** Unset: detected from the answers. */
  format?: GeocoderFormat | undefined
  timeoutMs?: number
  lookupsPerMinute?: number
  now?: () => number
}

export const geocoderNotConfigured = () =>
  new AppError(
    'GEOCODER_NOT_CONFIGURED',
    'Address lookup is not set up on this service (GEOCODER_URL): enter the coordinates or place the pin on the map',
  )

const unavailable = (why: string) =>
  new AppError(
    'GEOCODER_UNAVAILABLE',
    `The address lookup service ${why}; enter the coordinates or try again`,
  )

export class Geocoder {
  private readonly base: string
  private format: GeocoderFormat | undefined
  private readonly timeoutMs: number
  private readonly lookupsPerMinute: number
  private readonly now: () => number
  private readonly cache = new Map<string, { expires: number; matches: GeocodeMatch[] }>()
  private readonly inFlight = new Map<string, Promise<GeocodeMatch[]>>()
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(options: GeocoderOptions) {
    this.base = options.url.replace(/\/+$/, '')
    this.format = options.format
    this.timeoutMs = options.timeoutMs ?? GEOCODER_TIMEOUT_MS
    this.lookupsPerMinute = options.lookupsPerMinute ?? GEOCODER_LOOKUPS_PER_MINUTE
    this.now = options.now ?? Date.now
  }

  async search(organisationId: string, q: string): Promise<GeocodeMatch[]> {
    // Sent as typed (single-spaced); cached by the same words in any case.
    const text = q.trim().replace(/\s+/g, ' ')
    const key = text.toLowerCase()
    const cached = this.cache.get(key)
    if (cached && cached.expires > this.now()) return cached.matches
    const pending = this.inFlight.get(key)
    if (pending) return pending
    this.count(organisationId)
    const lookup = this.lookUp(text).finally(() => this.inFlight.delete(key))
    this.inFlight.set(key, lookup)
    const matches = await lookup
    this.remember(key, matches)
    return matches
  }

  /** One more lookup for the organisation in this minute, or 429. */
  private count(organisationId: string): void {
    const now = this.now()
    let window = this.windows.get(organisationId)
    if (!window || now - window.start >= 60_000) {
      window = { start: now, count: 0 }
      this.windows.set(organisationId, window)
    }
    if (window.count >= this.lookupsPerMinute) {
      const retryAfterSeconds = Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000))
      throw new AppError(
        'RATE_LIMITED',
        `Address lookups are limited to ${this.lookupsPerMinute} a minute per organisation; retry in ${retryAfterSeconds} s`,
        undefined,
        { retryAfterSeconds },
      )
    }
    window.count += 1
  }

  private remember(key: string, matches: GeocodeMatch[]): void {
    if (this.cache.size >= CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value
      if (oldest !== undefined) this.cache.delete(oldest)
    }
    this.cache.set(key, { expires: this.now() + CACHE_TTL_MS, matches })
  }

  private async lookUp(q: string): Promise<GeocodeMatch[]> {
    const formats: GeocoderFormat[] = this.format ? [this.format] : ['nominatim', 'photon']
    let last: AppError | undefined
    for (const format of formats) {
      const answer = await this.ask(format, q)
      if (answer instanceof AppError) {
        last = answer
        continue
      }
      const matches = formatOf(answer) === format ? readMatches(answer) : null
      if (matches === null) {
        last = unavailable(
          `answered something that is not a ${format === 'nominatim' ? 'Nominatim' : 'Photon'} result`,
        )
        continue
      }
      this.format = format
      return matches.slice(0, GEOCODER_RESULTS)
    }
    throw last ?? unavailable('did not answer')
  }

  private requestUrl(format: GeocoderFormat, q: string): string {
    const params = new URLSearchParams(
      format === 'nominatim'
        ? { format: 'jsonv2', q, limit: String(GEOCODER_RESULTS) }
        : { q, limit: String(GEOCODER_RESULTS) },
    )
    return `${this.base}/${format === 'nominatim' ? 'search' : 'api'}?${params}`
  }

  /** The parsed JSON body of one request, or why there is none. */
  private async ask(format: GeocoderFormat, q: string): Promise<unknown> {
    const signal = AbortSignal.timeout(this.timeoutMs)
    try {
      const response = await fetch(this.requestUrl(format, q), {
        signal,
        headers: { accept: 'application/json', 'user-agent': 'fieldservice address lookup' },
      })
      if (!response.ok) {
        await response.body?.cancel()
        return unavailable(`answered HTTP ${response.status}`)
      }
      return JSON.parse(
        await readLimitedText(response, MAX_BODY_BYTES, () =>
          unavailable('answered more than a geocoder result'),
        ),
      )
    } catch (error) {
      if (signal.aborted) return unavailable(`did not answer within ${this.timeoutMs / 1000} s`)
      if (error instanceof SyntaxError) return unavailable('answered something that is not JSON')
      if (error instanceof AppError) return error
      return unavailable('cannot be reached')
    }
  }
}
