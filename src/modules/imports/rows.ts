// What one row of an import did, and a refused row's error as the dashboard lists it.
import type { ErrorObject } from 'ajv'
import { AppError, describeDetail } from '../../http/errors.js'
import { describeValidationErrors } from '../../http/validation.js'
import type { ImportRowError } from './schemas.js'

export interface ImportRowInput {
  /** The row's number in the file, the header being row 1. */
  row: number
  values: Record<string, unknown>
}

export type RowOutcome = 'created' | 'updated' | 'unchanged' | ImportRowError

/** A refusal a row's write threw (AppError: the code and field POST would answer with). */
export class RowRefused extends Error {
  constructor(readonly rowError: ImportRowError) {
    super(rowError.error)
  }
}

const fieldOf = (path: string | undefined): string | null =>
  path?.replace(/^\/(body)\//, '').split('/')[0] || null

/** The schema's complaints about a row, the first one named. */
export function schemaError(row: number, errors: ErrorObject[]): ImportRowError {
  const details = describeValidationErrors(errors, 'body')
  const first = details[0]
  return {
    row,
    field: fieldOf(first?.path),
    error: first ? describeDetail(first) : 'is not valid',
    code: 'VALIDATION_ERROR',
  }
}

/** An error a service threw for a row: a coded AppError becomes the row's error; anything else is rethrown. */
export function rowErrorOf(row: number, error: unknown): ImportRowError {
  if (error instanceof RowRefused) return error.rowError
  if (!(error instanceof AppError) || error.statusCode >= 500) throw error
  return { row, field: fieldOf(error.details?.[0]?.path), error: error.message, code: error.code }
}

export const fieldError = (row: number, field: string, error: string, code = 'VALIDATION_ERROR') =>
  new RowRefused({ row, field, error, code })
