// A map to place one pin: click the map or drag the pin to set latitude and longitude. On the
// organisation's tile server when an admin set one; otherwise a plain grid with the depots drawn on
// it for bearings, and a scale bar. The numeric inputs beside it stay the exact way in (and the
// keyboard one).
import 'leaflet/dist/leaflet.css'
import './pin-picker.css'
import * as L from 'leaflet'
import { useEffect, useRef } from 'react'
import { leafletText } from '../map/leaflet-text'
import { addTileLayer, useMapTiles } from '../map/tile-settings'

export interface Landmark {
  name: string
  latitude: number
  longitude: number
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
  const landmarkLayer = useRef<L.LayerGroup | null>(null)
  /** Whether the view was set from the pin or a landmark, rather than the default centre. */
  const placed = useRef(false)
  const change = useRef(onChange)
  change.current = onChange
  // The landmarks as a value: a new array on every render must not redraw them.
  const landmarksKey = JSON.stringify(landmarks)
  const tiles = useMapTiles()

  // The map is made once; the pin and the landmarks follow the props below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: created once, updated by the effects below
  useEffect(() => {
    const element = container.current
    if (!element) return
    const centre: L.LatLngTuple =
      latitude !== null && longitude !== null ? [latitude, longitude] : DEFAULT_CENTRE
    placed.current = centre !== DEFAULT_CENTRE
    const instance = L.map(element, { center: centre, zoom: 12 })
    L.control.scale({ position: 'bottomleft' }).addTo(instance)
    landmarkLayer.current = L.layerGroup().addTo(instance)
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
      landmarkLayer.current = null
    }
  }, [])

  // The tiles arrive with their query, after the map is made.
  useEffect(() => {
    const instance = map.current
    if (!instance) return
    return addTileLayer(instance, tiles)
  }, [tiles])

  // The depots often arrive after the map is made (their query starts with the dialog).
  useEffect(() => {
    const instance = map.current
    const layer = landmarkLayer.current
    if (!instance || !layer) return
    layer.clearLayers()
    const drawn = JSON.parse(landmarksKey) as Landmark[]
    for (const landmark of drawn) {
      L.circleMarker([landmark.latitude, landmark.longitude], {
        radius: 6,
        className: 'pin-landmark',
        interactive: false,
      })
        .bindTooltip(leafletText(landmark.name), {
          permanent: true,
          direction: 'right',
          className: 'pin-landmark-label',
        })
        .addTo(layer)
    }
    const [first] = drawn
    if (first && !placed.current) {
      instance.setView([first.latitude, first.longitude], instance.getZoom(), { animate: false })
      placed.current = true
    }
  }, [landmarksKey])

  useEffect(() => {
    const instance = map.current
    if (!instance) return
    if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
      marker.current?.remove()
      marker.current = null
      return
    }
    const position: L.LatLngTuple = [latitude, longitude]
    placed.current = true
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
