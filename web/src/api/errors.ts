// The admin API's error body ({ error, code, details? }) as a thrown value, so query and mutation
// hooks fail with something a page can show: a message, a code to branch on, field errors for forms.
import type { components } from './schema'

export type ErrorBody = components['schemas']['Error']

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details: { path: string; message: string }[]
  /** Seconds from a 429's Retry-After header. */
  readonly retryAfterSeconds: number | null
  /** The whole body, for codes that carry more (ORGANISATION_REQUIRED lists the organisations). */
  readonly body: unknown

  constructor(status: number, body: Partial<ErrorBody> | undefined, retryAfter: string | null = null) {
    super(body?.error ?? `The server answered ${status}`)
    this.name = 'ApiError'
    this.status = status
    this.code = body?.code ?? (status >= 500 ? 'INTERNAL_ERROR' : 'UNKNOWN')
    this.details = Array.isArray(body?.details) ? body.details : []
    this.body = body
    const seconds = retryAfter === null ? Number.NaN : Number(retryAfter)
    this.retryAfterSeconds = Number.isFinite(seconds) ? seconds : null
  }

  /**
   * Field errors keyed by the field's path inside the body: `/body/name` → `name`,
   * `/body/scopes/1` → `scopes` (the field, not the item), for showing each next to its input.
   */
  fieldErrors(): Record<string, string> {
    const fields: Record<string, string> = {}
    for (const { path, message } of this.details) {
      const match = /^\/body\/([^/]+)/.exec(path)
      const field = match?.[1]
      if (field && !(field in fields)) fields[field] = message
    }
    return fields
  }

  /** The message for the form as a whole: everything not shown next to a field. */
  formError(knownFields: readonly string[]): string | null {
    const fields = this.fieldErrors()
    const shown = Object.keys(fields).filter((field) => knownFields.includes(field))
    return shown.length > 0 && shown.length === this.details.length ? null : this.message
  }
}

/** Anything thrown → a message for a person (network failures included). */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message
  if (error instanceof TypeError) return 'Cannot reach the server. Check your connection and try again.'
  if (error instanceof Error) return error.message
  return 'Something went wrong'
}
