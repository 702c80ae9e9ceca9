// A map to place one pin: click the map or drag the pin to set latitude and longitude. There is no
// tile server, so the map is a plain grid with the depots drawn on it for bearings; someone who has
// a tile server sets its URL template in localStorage (`fieldservice.mapTilesUrl`) and gets tiles.
// The numeric inputs beside it stay the exact way in (and the keyboard one).
import 'leaflet/dist/leaflet.css'
import './pin-picker.css'
import * as L from 'leaflet'
import { useEffect, useRef } from 'react'

export const MAP_TILES_KEY = 'fieldservice.mapTilesUrl'

export interface Landmark {
  name: string
  latitude: number
  longitude: number
}

function tilesUrl(): string | null {
  try {
    return localStorage.getItem(MAP_TILES_KEY) || null
  } catch {
    return null
  }
}

const PIN = L.divIcon({ className: 'pin-marker', iconSize: [22, 22], iconAnchor: [11, 22] })
const DEFAULT_CENTRE: L.LatLngTuple = [51.5072, -0.1276]
const round6 = (value: number) => Math.round(value * 1e6) / 1e6

export function PinPicker({
  label,
  latitude,
  longitude,
  landmarks = [],
  onChange,
}: {
  /** What the map is for ("Customer location"), its accessible name. */
  label: string
  latitude: number | null
  longitude: number | null
  landmarks?: Landmark[]
  onChange: (latitude: number, longitude: number) => void
}) {
  const container = useRef<HTMLDivElement>(null)
  const map = useRef<L.Map | null>(null)
  const marker = useRef<L.Marker | null>(null)
  const change = useRef(onChange)
  change.current = onChange

  // The map is made once; the pin follows the props below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: created once, updated by the effects below
  useEffect(() => {
    const element = container.current
    if (!element) return
    const first = landmarks[0]
    const centre: L.LatLngTuple =
      latitude !== null && longitude !== null
        ? [latitude, longitude]
        : first
          ? [first.latitude, first.longitude]
          : DEFAULT_CENTRE
    const instance = L.map(element, { center: centre, zoom: 12, attributionControl: false })
    const url = tilesUrl()
    if (url) L.tileLayer(url, { maxZoom: 19 }).addTo(instance)
    for (const landmark of landmarks) {
      L.circleMarker([landmark.latitude, landmark.longitude], {
        radius: 6,
        className: 'pin-landmark',
        interactive: false,
      })
        .bindTooltip(landmark.name, { permanent: true, direction: 'right', className: 'pin-landmark-label' })
        .addTo(instance)
    }
    instance.on('click', (event: L.LeafletMouseEvent) =>
      change.current(round6(event.latlng.lat), round6(event.latlng.lng)),
    )
    map.current = instance
    // The map is laid out before its dialog opens: measure again whenever the box changes.
    const resize = new ResizeObserver(() => instance.invalidateSize())
    resize.observe(element)
    return () => {
      resize.disconnect()
      instance.remove()
      map.current = null
      marker.current = null
    }
  }, [])

  useEffect(() => {
    const instance = map.current
    if (!instance) return
    if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
      marker.current?.remove()
      marker.current = null
      return
    }
    const position: L.LatLngTuple = [latitude, longitude]
    if (!marker.current) {
      const pin = L.marker(position, { icon: PIN, draggable: true, title: `${label}: drag to move` })
      pin.on('dragend', () => {
        const at = pin.getLatLng()
        change.current(round6(at.lat), round6(at.lng))
      })
      marker.current = pin.addTo(instance)
    } else {
      marker.current.setLatLng(position)
    }
    if (!instance.getBounds().pad(-0.1).contains(position)) instance.panTo(position)
  }, [latitude, longitude, label])

  return (
    <fieldset className="pin-picker">
      <legend className="visually-hidden">{label} map</legend>
      <div ref={container} className="pin-picker-map" />
      <p className="pin-picker-hint">Click the map to place the pin, or drag it.</p>
    </fieldset>
  )
}
