// The live day on the map: each worker's last position as a pill in their row's colour, with their
// name and how old the fix is; a fix older than the freshness rule (15 min) is drawn faded. Leaflet
// gets the label as a text node (leaflet-text.ts): a worker's name is typed by people.
import L from 'leaflet'
import type { LatLng } from '../board/board-model'
import { leafletText } from './leaflet-text'

export interface MapWorker {
  id: string
  name: string
  /** 1–8, as the worker's timeline row and route. */
  colour: number
  position: LatLng
  /** "2 min ago" */
  age: string
  stale: boolean
}

export function addWorkerMarkers(group: L.LayerGroup, workers: readonly MapWorker[]): void {
  for (const worker of workers) {
    const label = `${worker.name} · ${worker.age}`
    L.marker(worker.position, {
      icon: L.divIcon({
        className: `map-worker route-${worker.colour}${worker.stale ? ' map-worker-stale' : ''}`,
        html: leafletText(label),
        // No size: the pill is as wide as its text (map.css); the dot at its left edge is the position.
        iconSize: undefined,
        iconAnchor: [11, 11],
      }),
      keyboard: false,
      // Leaflet sets the icon's opacity inline, so the fading is an option, not a class.
      opacity: worker.stale ? 0.55 : 1,
      title: `${worker.name}: last seen ${worker.age}${worker.stale ? ' (not recent)' : ''}`,
      // Above the job markers: where the van is matters more than the stop under it.
      zIndexOffset: 1000,
    }).addTo(group)
  }
}
