import { ApiError, errorMessage } from '../../api/errors'

/** What the sign-in page says for each failure the contract defines. */
export function signInMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return errorMessage(error)
  switch (error.code) {
    case 'UNAUTHORIZED':
      return 'Email or password is incorrect.'
    case 'FORBIDDEN':
      // Workers: the server's message says where to go instead.
      return error.message
    case 'RATE_LIMITED': {
      const wait = error.retryAfterSeconds
      const when =
        wait === null
          ? 'in a few minutes'
          : wait < 90
            ? `in ${wait} seconds`
            : `in ${Math.ceil(wait / 60)} minutes`
      return `Too many sign-in attempts. For your security, try again ${when}.`
    }
    default:
      return error.message
  }
}

export interface OrganisationChoice {
  id: string
  name: string
}

/** The organisations of a 409 ORGANISATION_REQUIRED, to choose from; null for any other outcome. */
export function organisationChoices(error: unknown): OrganisationChoice[] | null {
  if (!(error instanceof ApiError) || error.code !== 'ORGANISATION_REQUIRED') return null
  const body = error.body as { organisations?: unknown; details?: unknown } | undefined
  const list = Array.isArray(body?.organisations) ? body.organisations : []
  const choices = list.filter(
    (o): o is OrganisationChoice =>
      typeof o === 'object' && o !== null && typeof o.id === 'string' && typeof o.name === 'string',
  )
  return choices.length > 0 ? choices : null
}
