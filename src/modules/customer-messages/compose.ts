// The customer's emails, as plain text: what they say is the job title, the organisation's name, the
// arrival window and the tracking link — nothing the customer did not already know, and no HTML (the
// title and names were typed by users, and plain text cannot carry markup anywhere).
import type { CustomerMessageKind } from '../../db/types.js'
import { arrivalWindowOf } from '../tracking/service.js'

export interface Composed {
  subject: string
  body: string
}

/** HH:MM–HH:MM UTC: the service knows no customer's time zone, so it says which one it uses. */
function windowText(eta: string | null): string | null {
  const window = arrivalWindowOf(eta)
  if (!window) return null
  const time = (iso: string) => iso.slice(11, 16)
  return `${time(window.from)}–${time(window.to)} UTC`
}

export function composeMessage(
  kind: CustomerMessageKind,
  context: {
    organisationName: string
    customerName: string
    title: string
    eta: string | null
    trackingUrl: string | null
    firstName: string | null
  },
): Composed {
  const who = context.firstName
    ? `${context.firstName} from ${context.organisationName}`
    : context.organisationName
  if (kind === 'EN_ROUTE') {
    const window = windowText(context.eta)
    return {
      subject: `${context.organisationName}: your technician is on the way`,
      body: [
        `Hello ${context.customerName},`,
        '',
        `${who} is on the way to you for "${context.title}".`,
        window ? `Expected arrival: ${window}.` : 'We will be with you as soon as we can.',
        context.trackingUrl ? `Follow the visit here: ${context.trackingUrl}` : '',
        '',
        context.organisationName,
      ]
        .filter((line, i, lines) => line !== '' || lines[i - 1] !== '')
        .join('\n'),
    }
  }
  return {
    subject: `${context.organisationName}: your visit is complete`,
    body: [
      `Hello ${context.customerName},`,
      '',
      `"${context.title}" is complete. Thank you for having us.`,
      '',
      context.organisationName,
    ].join('\n'),
  }
}
