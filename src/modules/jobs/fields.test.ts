// serialize.ts keeps hand-written object literals (the hot GET /jobs and GET /jobs/:id paths: a literal
// builds each object with one hidden class, faster than a loop over the table per row). These tests
// are what keeps it honest: they fail when a field is in the table and not in the literal, under
// another name, from another column, or in another place than the response schema lists it.
import { describe, expect, it } from 'vitest'
import { DETAIL_PROPERTIES, JOB_FIELDS, LISTED_PROPERTIES } from './fields.js'
import type { JobWithExtrasRow } from './repository.js'
import { JobDetail, JobListed } from './schemas.js'
import { serializeJobDetail, serializeJobListed } from './serialize.js'

/** A row whose every column holds its own name, so a value shows which column it came from. */
function markedRow(): JobWithExtrasRow {
  const row: Record<string, unknown> = {}
  for (const { column } of JOB_FIELDS) row[column] = `<${column}>`
  return {
    ...(row as unknown as JobWithExtrasRow),
    customer_name: 'Customer',
    customer_address: 'Address',
    customer_latitude: '1',
    customer_longitude: '2',
    location_name: 'Depot',
    assigned_user_name: 'Worker',
    assigned_user_email: 'worker@example.com',
    tags_json: '[]',
    demands_json: '[]',
  }
}

/** What the table says each property of `properties` holds: `<column>`. */
function expectedFromTable(properties: Record<string, unknown>): [string, string][] {
  return Object.keys(properties).map((name) => {
    const field = JOB_FIELDS.find((candidate) => 'name' in candidate && candidate.name === name)
    const prefix = field && 'prefix' in field ? field.prefix : ''
    return [name, `${prefix}<${field?.column}>`]
  })
}

describe('the job serializer and the field table', () => {
  it('a listed job has every listed field of the table, from its column, in the schema’s order', () => {
    const job = serializeJobListed(markedRow())
    const columnsPart = Object.entries(job).slice(0, Object.keys(LISTED_PROPERTIES).length)
    expect(columnsPart).toEqual(expectedFromTable(LISTED_PROPERTIES))
    expect(Object.keys(job)).toEqual(Object.keys(JobListed.properties))
  })

  it('a job in detail adds the detail-only fields of the table, in the schema’s order', () => {
    const job = serializeJobDetail(markedRow(), { tags: [], demands: [] })
    expect(Object.keys(job)).toEqual(Object.keys(JobDetail.properties))
    const detail = Object.fromEntries(Object.entries(job))
    for (const [name, value] of expectedFromTable({ ...LISTED_PROPERTIES, ...DETAIL_PROPERTIES })) {
      expect(detail[name], name).toBe(value)
    }
  })
})
