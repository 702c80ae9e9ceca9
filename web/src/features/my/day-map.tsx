// The day's stops on a map (Leaflet): numbered markers in route order, the depot, and the route line
// depot → stops → depot in the worker's colour (the same as on the office's board and map). On the
// organisation's tile server when an admin set one; otherwise the stops, their names, the line and a
// scale bar on a plain background, with nothing from another origin. Loaded on demand (its own chunk).
import L from 'leaflet'
import 'leaflet/dist/leaflet.css'
import { useEffect, useRef } from 'react'
import { useSession } from '../../app/session'
import { colourOf } from '../board/worker-colour'
import '../map/map.css'
import { leafletText } from '../map/leaflet-text'
import { addReadingAids, addTileLayer, labelMarker, useMapTiles } from '../map/tile-settings'
import type { MyJob } from './types'

type Point = [number, number]

function pointOf(latitude: string | null | undefined, longitude: string | null | undefined): Point | null {
  if (latitude == null || longitude == null) return null
  const point: Point = [Number(latitude), Number(longitude)]
  return Number.isFinite(point[0]) && Number.isFinite(point[1]) ? point : null
}

function marker(point: Point, className: string, text: string, title: string): L.Marker {
  const icon = L.divIcon({ className, html: leafletText(text), iconSize: [28, 28], iconAnchor: [14, 14] })
  return L.marker(point, { icon, title, alt: title, keyboard: false })
}

interface Drawing {
  stops: { sequence: number; title: string; status: string; point: Point }[]
  depot: { name: string; point: Point } | null
  /** 1–8: the worker's route colour (board/worker-colour.ts). */
  colour: number
}

export default function DayMap({ jobs }: { jobs: MyJob[] }) {
  const container = useRef<HTMLDivElement>(null)
  const tiles = useMapTiles()
  const colour = colourOf(useSession().user)
  const stops = jobs.flatMap((job) => {
    const point = pointOf(job.latitude, job.longitude)
    return point ? [{ sequence: job.sequence, title: job.title, status: job.status, point }] : []
  })
  const depot = jobs.find((job) => job.depot)?.depot ?? null
  const depotPoint = pointOf(depot?.latitude, depot?.longitude)
  // What is drawn, as a string: the map is redrawn when it changes, not on every refetch.
  const drawing = JSON.stringify({
    stops,
    depot: depot && depotPoint ? { name: depot.name, point: depotPoint } : null,
    colour,
  } satisfies Drawing)

  useEffect(() => {
    const element = container.current
    if (!element) return
    const { stops, depot, colour } = JSON.parse(drawing) as Drawing
    const map = L.map(element, { zoomSnap: 0.5, attributionControl: tiles !== null })
    addTileLayer(map, tiles)
    addReadingAids(map)
    const path: Point[] = []
    if (depot) {
      path.push(depot.point)
      marker(depot.point, 'my-map-depot', 'D', `Depot: ${depot.name}`).addTo(map)
      if (!tiles) labelMarker(depot.point, depot.name).addTo(map)
    }
    for (const stop of stops) {
      path.push(stop.point)
      const className = `my-map-stop my-map-${stop.status.toLowerCase()}`
      marker(stop.point, className, String(stop.sequence), `${stop.sequence}. ${stop.title}`).addTo(map)
      if (!tiles) labelMarker(stop.point, stop.title).addTo(map)
    }
    if (depot) path.push(depot.point)
    if (path.length > 1) {
      const line = L.polyline(path, { className: 'my-map-route', weight: 4, interactive: false }).addTo(map)
      // The worker's colour (a style, as SVG attributes cannot read the --route-N tokens).
      const drawn = line.getElement() as SVGElement | undefined
      drawn?.style.setProperty('stroke', `var(--route-${colour})`)
    }
    if (path.length > 0)
      map.fitBounds(L.latLngBounds(path), { padding: [28, 28], maxZoom: 15, animate: false })
    else map.setView([20, 0], 2)
    return () => {
      map.remove()
    }
  }, [drawing, tiles])

  if (stops.length === 0) return null
  return (
    <section className="my-map-wrap" aria-label="Map of the day’s route">
      <div ref={container} className="my-map" />
      <p className="visually-hidden">
        The route leaves {depot ? depot.name : 'the depot'} and visits the stops in the numbered order below.
      </p>
    </section>
  )
}
