import type { Pagination } from './schemas.js'

export interface PageRequest {
  page: number
  limit: number
}

export function offsetOf({ page, limit }: PageRequest): number {
  return (page - 1) * limit
}

export function paginationOf({ page, limit }: PageRequest, total: number): Pagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) }
}
