// The day on a map (Leaflet): depots as squares, jobs as status glyphs in the status colours, each
// route as a line in its row's colour, in visiting order. On the organisation's tile server when an
// admin set one (Organisation page); otherwise a plain background with a scale bar and the names of
// the stops and depots, and nothing is fetched from elsewhere.
import L from 'leaflet'
import 'leaflet/dist/leaflet.css'
import './map.css'
import { useEffect, useRef } from 'react'
import type { LatLng } from '../board/board-model'
import { type BlockStatus, STATUS_LOOK } from '../board/status'
import { leafletText } from './leaflet-text'
import { addWorkerMarkers, type MapWorker } from './live-layer'
import { addReadingAids, addTileLayer, labelMarker, useMapTiles } from './tile-settings'

export interface MapDepot {
  id: string
  name: string
  position: LatLng
}

export interface MapJob {
  id: string
  title: string
  status: BlockStatus
  position: LatLng
}

export interface MapRoute {
  id: string
  label: string
  /** 1–8, as the timeline row's swatch. */
  colour: number
  path: LatLng[]
}

const WORLD_ZOOM = 2
const NO_WORKERS: MapWorker[] = []

export function MapPanel({
  label,
  depots,
  jobs,
  routes,
  workers = NO_WORKERS,
  fitKey,
}: {
  label: string
  depots: MapDepot[]
  jobs: MapJob[]
  routes: MapRoute[]
  /** Today: where each worker was last seen (live-layer.ts). */
  workers?: MapWorker[]
  /** The view is fitted to the markers when this changes (another day or depot), not on every refresh. */
  fitKey: string
}) {
  const container = useRef<HTMLDivElement>(null)
  const map = useRef<L.Map | null>(null)
  const overlays = useRef<L.LayerGroup | null>(null)
  const fitted = useRef<string | null>(null)
  const fitToMarkers = useRef(() => {})
  const tiles = useMapTiles()

  useEffect(() => {
    if (!container.current) return
    // The whole world until the markers are known (fitToMarkers then fits the view to them).
    const created = L.map(container.current, { zoomSnap: 0.5, minZoom: WORLD_ZOOM, maxZoom: 19 }).setView(
      [20, 0],
      WORLD_ZOOM,
      {
        animate: false,
      },
    )
    overlays.current = L.layerGroup().addTo(created)
    addReadingAids(created)
    map.current = created
    const resize = new ResizeObserver(() => {
      created.invalidateSize({ animate: false })
      fitToMarkers.current()
    })
    resize.observe(container.current)
    return () => {
      resize.disconnect()
      created.remove()
      map.current = null
    }
  }, [])

  useEffect(() => {
    const current = map.current
    if (!current) return
    return addTileLayer(current, tiles)
  }, [tiles])

  useEffect(() => {
    const current = map.current
    const group = overlays.current
    if (!current || !group) return
    group.clearLayers()
    for (const route of routes) {
      if (route.path.length < 2) continue
      L.polyline(route.path, { className: `map-route route-${route.colour}`, weight: 4, opacity: 0.85 })
        .bindTooltip(leafletText(route.label), { sticky: true })
        .addTo(group)
      // Where the route leaves from (a van may start away from its depot).
      const [start] = route.path
      if (start) {
        L.circleMarker(start, { className: `map-route map-route-start route-${route.colour}`, radius: 5 })
          .bindTooltip(leafletText(`${route.label}: start`))
          .addTo(group)
      }
    }
    for (const depot of depots) {
      L.marker(depot.position, {
        icon: L.divIcon({ className: 'map-depot', html: leafletText('■'), iconSize: [20, 20] }),
        keyboard: false,
        title: `Depot: ${depot.name}`,
      }).addTo(group)
      if (!tiles) labelMarker(depot.position, depot.name).addTo(group)
    }
    for (const job of jobs) {
      const look = STATUS_LOOK[job.status]
      L.marker(job.position, {
        icon: L.divIcon({
          className: `map-job ${look.className}`,
          html: leafletText(look.glyph),
          iconSize: [20, 20],
        }),
        keyboard: false,
        title: `${job.title} (${look.label})`,
      })
        .bindTooltip(leafletText(`${job.title} · ${look.label}`))
        .addTo(group)
      if (!tiles) labelMarker(job.position, job.title).addTo(group)
    }
    addWorkerMarkers(group, workers)
    fitToMarkers.current = () => {
      // Once per day and depot (or while still showing the whole world), once the map has a size.
      const element = container.current
      if (!element || element.clientWidth === 0 || element.clientHeight === 0) return
      const points = [
        ...depots.map((d) => d.position),
        ...jobs.map((j) => j.position),
        ...workers.map((w) => w.position),
      ]
      const worldView = current.getZoom() <= WORLD_ZOOM
      if (fitted.current === fitKey && !(worldView && points.length > 0)) return
      current.invalidateSize({ animate: false })
      if (points.length > 0) {
        current.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 14, animate: false })
      } else {
        current.setView([20, 0], WORLD_ZOOM, { animate: false })
      }
      fitted.current = fitKey
    }
    fitToMarkers.current()
    // And once more after the browser has laid the page out.
    const frame = requestAnimationFrame(() => fitToMarkers.current())
    return () => cancelAnimationFrame(frame)
  }, [depots, jobs, routes, workers, fitKey, tiles])

  const located = jobs.length
  return (
    <section className="card map-panel" aria-label={label}>
      <header className="map-header">
        <h2>{label}</h2>
      </header>
      <p className="visually-hidden">
        {depots.length} depots, {located} jobs with a position and {routes.length} routes
        {workers.length > 0
          ? `; workers last seen: ${workers.map((w) => `${w.name} ${w.age}`).join(', ')}`
          : ''}
        . Every job on the map is also on the board.
      </p>
      <div ref={container} className={tiles ? 'map-canvas' : 'map-canvas map-canvas-plain'} />
      {!tiles && (
        <p className="map-note muted">
          No background map: markers, routes, names and a scale. An admin can set the organisation’s tile
          server on the Organisation page.
        </p>
      )}
    </section>
  )
}
