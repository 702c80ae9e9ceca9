// The fleet's lists as CSV (Download CSV beside each): every depot, and the vehicles the depot filter
// shows, all pages.
import { api, unwrap } from '../../api/client'
import type { Schema } from '../../api/types'
import { allPages, type CsvColumn } from '../../lib/csv'

type Depot = Schema<'Location'>
type Vehicle = Schema<'Vehicle'>

export const allDepots = () =>
  allPages(async (page) => {
    const { locations, pagination } = await unwrap(
      api.GET('/locations', { params: { query: { page, limit: 100 } } }),
    )
    return { items: locations, total: pagination.total }
  })

export const allVehicles = (locationId: string | null | undefined) =>
  allPages(async (page) => {
    const query = { page, limit: 100, ...(locationId ? { locationId } : {}) }
    const { vehicles, pagination } = await unwrap(api.GET('/vehicles', { params: { query } }))
    return { items: vehicles, total: pagination.total }
  })

export const DEPOT_CSV: CsvColumn<Depot>[] = [
  { header: 'id', value: (d) => d.id },
  { header: 'name', value: (d) => d.name },
  { header: 'code', value: (d) => d.code },
  { header: 'address', value: (d) => d.address },
  { header: 'latitude', value: (d) => d.latitude },
  { header: 'longitude', value: (d) => d.longitude },
  { header: 'timezone', value: (d) => d.timezone },
  { header: 'isPrimary', value: (d) => d.isPrimary },
  { header: 'isActive', value: (d) => d.isActive },
]

export const VEHICLE_CSV: CsvColumn<Vehicle>[] = [
  { header: 'id', value: (v) => v.id },
  { header: 'name', value: (v) => v.name },
  { header: 'depot', value: (v) => v.location?.name },
  { header: 'tags', value: (v) => v.tags.map((t) => t.tag.name).join('; ') },
  { header: 'fixedCost', value: (v) => v.fixedCost },
  { header: 'costPerKm', value: (v) => v.costPerKm },
  { header: 'costPerHour', value: (v) => v.costPerHour },
  { header: 'speedFactor', value: (v) => v.speedFactor },
  { header: 'endPolicy', value: (v) => v.endPolicy },
  { header: 'isActive', value: (v) => v.isActive },
]
