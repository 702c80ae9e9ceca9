// From a CSV row to the body POST would take: which column each field reads (the mapping, else the
// column of the field's own name, ignoring case), and the text of a cell as the body's JSON value.
import { validationError } from '../../http/errors.js'
import { IMPORT_FIELDS } from './schemas.js'

export type ImportKind = keyof typeof IMPORT_FIELDS

/** Fields whose cells are numbers in the body; any other non-empty cell is sent as text. */
const NUMBER_FIELDS = new Set(['latitude', 'longitude', 'jobLatitude', 'jobLongitude', 'serviceDuration'])
const PLAIN_NUMBER = /^-?[0-9]+(\.[0-9]+)?$/

/** 400 at /body/mapping/<field> for a field the kind does not have. */
export function assertMapping(kind: ImportKind, mapping: Record<string, string>): void {
  const fields: readonly string[] = IMPORT_FIELDS[kind]
  for (const field of Object.keys(mapping)) {
    if (!fields.includes(field)) {
      throw validationError(`/body/mapping/${field}`, `is not a field of ${kind} (${fields.join(', ')})`)
    }
  }
}

/** A file this import cannot read (the import ends FAILED with this message). */
export class ImportFileError extends Error {}

/** Each field's column index in the header; an Error naming the column when a mapped one is missing. */
export function columnsOf(
  kind: ImportKind,
  mapping: Record<string, string>,
  header: readonly string[],
): Map<string, number> {
  const lower = header.map((name) => name.trim().toLowerCase())
  const columns = new Map<string, number>()
  for (const field of IMPORT_FIELDS[kind]) {
    const wanted = mapping[field]
    const index = lower.indexOf((wanted ?? field).trim().toLowerCase())
    if (index >= 0) columns.set(field, index)
    else if (wanted !== undefined)
      throw new ImportFileError(`the file has no column "${wanted}" (mapped to ${field})`)
  }
  if (!columns.has('externalId')) {
    throw new ImportFileError('the file has no externalId column (map one with mapping.externalId)')
  }
  return columns
}

/**
 * A row as the body's values: an empty cell is no value (an update leaves the field as it is);
 * numbers written plainly become numbers, anything else stays text for the schema to refuse.
 */
export function valuesOf(record: readonly string[], columns: Map<string, number>): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [field, index] of columns) {
    const cell = record[index]
    if (cell === undefined || cell.trim() === '') continue
    values[field] = NUMBER_FIELDS.has(field) && PLAIN_NUMBER.test(cell.trim()) ? Number(cell.trim()) : cell
  }
  return values
}
