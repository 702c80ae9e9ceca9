// The maps' background: the organisation's tile server, set once by an admin on the Organisation page
// (GET /organisation/map; any signed-in user reads it, workers too). None set, the maps request
// nothing from another origin: markers, lines, text labels and a scale bar on a plain background.
import { useQuery } from '@tanstack/react-query'
import L from 'leaflet'
import { useMemo } from 'react'
import { api, unwrap } from '../../api/client'
import { attributionHtml, leafletText } from './leaflet-text'

export interface MapTiles {
  url: string
  attribution: string
}

export const MAP_TILES_QUERY_KEY = ['organisation', 'map'] as const

/** GET /organisation/map: the tile server, and whether addresses can be looked up (one request). */
export function useMapSettings() {
  return useQuery({
    queryKey: MAP_TILES_QUERY_KEY,
    queryFn: () => unwrap(api.GET('/organisation/map')),
    staleTime: 5 * 60_000,
  })
}

/** The organisation's tile server, or null (none set, or not known yet). */
export function useMapTiles(): MapTiles | null {
  const query = useMapSettings()
  const url = query.data?.map.tileUrl ?? null
  const attribution = query.data?.map.attribution ?? ''
  // One object while the setting is the same: maps redraw when it changes, not on every render.
  return useMemo(() => (url ? { url, attribution } : null), [url, attribution])
}

/** The tile layer of `tiles` on `map` (its attribution as text); the returned function removes it. */
export function addTileLayer(map: L.Map, tiles: MapTiles | null): () => void {
  if (!tiles) return () => {}
  const layer = L.tileLayer(tiles.url, {
    attribution: attributionHtml(tiles.attribution),
    maxZoom: 19,
  }).addTo(map)
  return () => {
    layer.remove()
  }
}

/** Zoom from which a map without tiles names its stops and depots beside their markers. */
export const LABEL_ZOOM = 11

/**
 * What keeps a map readable without tiles: a scale bar always, and the names of the stops and depots
 * (`labelMarker`s) once zoomed in far enough for them not to pile up (the container gets
 * `map-labelled`; map.css shows `.map-label` only there).
 */
export function addReadingAids(map: L.Map): void {
  L.control.scale({ position: 'bottomleft' }).addTo(map)
  const container = map.getContainer()
  const toggle = () => container.classList.toggle('map-labelled', map.getZoom() >= LABEL_ZOOM)
  map.on('zoomend', toggle)
  toggle()
}

/** A name written beside a marker at `position` (as text, never HTML); not clickable. */
export function labelMarker(position: L.LatLngExpression, text: string): L.Marker {
  return L.marker(position, {
    icon: L.divIcon({
      className: 'map-label',
      html: leafletText(text),
      iconSize: [0, 0],
      iconAnchor: [-16, 9],
    }),
    interactive: false,
    keyboard: false,
  })
}
