// The organisation's map background: which tile URL templates are accepted. https only (the
// dashboard's CSP allows images from https origins and no other: security-headers.ts), a host name
// (no user:password@), and only the placeholders Leaflet fills — an unknown one would make Leaflet
// throw on the first tile, on every map of the organisation.
import { validationError } from '../../http/errors.js'

const TEMPLATE = /^https:\/\/(?:[a-z0-9-]|\{s\}|\.)+(?::\d{1,5})?\/\S*$/i
const REQUIRED = ['{z}', '{x}', '{y}'] as const
const KNOWN = new Set(['{s}', '{z}', '{x}', '{y}', '{-y}', '{r}'])

/** Why a tile URL template cannot be used, or null when it can. */
export function tileUrlProblem(url: string): string | null {
  if (!TEMPLATE.test(url)) return 'must be an https:// address of a tile server (no user name or password)'
  for (const part of REQUIRED) {
    if (!url.includes(part))
      return `must contain ${part}, for example https://tiles.example.com/{z}/{x}/{y}.png`
  }
  for (const placeholder of url.match(/\{[^}]*\}/g) ?? []) {
    if (!KNOWN.has(placeholder))
      return `has ${placeholder}: only {s}, {z}, {x}, {y}, {-y} and {r} are filled in`
  }
  return null
}

/** The stored value of a written tile URL (empty clears it), or a 400 naming the field. */
export function checkedTileUrl(raw: string | null): string | null {
  const url = raw?.trim() ?? ''
  if (url === '') return null
  const problem = tileUrlProblem(url)
  if (problem) throw validationError('/body/map/tileUrl', problem)
  return url
}

/** The stored attribution (empty clears it); plain text, so no control characters. */
export function checkedAttribution(raw: string | null): string | null {
  const text = raw?.trim() ?? ''
  if (text === '') return null
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(text))
    throw validationError('/body/map/attribution', 'must be one line of text')
  return text
}
