// The optional background map: a tile server URL a user may set (stored in this browser only). By
// default the map has no tiles at all — markers and lines on a plain background — so the dashboard
// makes no request to another origin unless someone chose one.
import { useCallback, useState } from 'react'

export interface TileSettings {
  url: string
  attribution: string
}

const STORAGE_KEY = 'fieldservice.map.tiles'

/** Why a tile URL cannot be used, or null when it can (https only: the page's CSP allows no other). */
export function tileUrlProblem(url: string): string | null {
  if (!/^https:\/\/[^/\s]+\/\S*$/.test(url)) return 'must be an https:// address'
  for (const part of ['{z}', '{x}', '{y}']) {
    if (!url.includes(part)) return `must contain ${part} (for example …/{z}/{x}/{y}.png)`
  }
  return null
}

function read(): TileSettings | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<TileSettings> | null
    if (!stored || typeof stored.url !== 'string' || tileUrlProblem(stored.url)) return null
    return { url: stored.url, attribution: typeof stored.attribution === 'string' ? stored.attribution : '' }
  } catch {
    return null
  }
}

export function useTileSettings() {
  const [tiles, setTiles] = useState<TileSettings | null>(read)
  const save = useCallback((next: TileSettings | null) => {
    if (next) localStorage.setItem(STORAGE_KEY, JSON.stringify(next))
    else localStorage.removeItem(STORAGE_KEY)
    setTiles(next)
  }, [])
  return { tiles, save }
}
