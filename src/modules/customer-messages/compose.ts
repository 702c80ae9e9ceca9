// The customer's emails, as plain text: what they say is the job title, the organisation's name, the
// arrival window and the tracking link — nothing the customer did not already know, and no HTML (the
// title and names were typed by users, and plain text cannot carry markup anywhere). The window is
// said as the tracking page says it, in the depot's time zone (tracking/arrival-window.ts).
import type { CustomerMessageKind } from '../../db/types.js'
import { arrivalWindowOf, describeArrivalWindow } from '../tracking/arrival-window.js'

export interface Composed {
  subject: string
  body: string
}

/** "14:05–14:35 (BST)" in the depot's zone, dated when not today there; null without an eta. */
function windowText(eta: string | null, timeZone: string, now: number): string | null {
  const window = arrivalWindowOf(eta)
  return window ? describeArrivalWindow(window, timeZone, now) : null
}

/**
 * A subject is one header line: a line break typed into a name (the organisation's) must not end it
 * and start another header (a Bcc). nodemailer folds headers too; this keeps the stored subject, listed
 * beside the deliveries, the line that was sent.
 */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ')
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
    /** The IANA zone of the job's depot (else the organisation's): the one the window is said in. */
    timeZone: string
    /** When the message is written (ms): the window is dated unless it is today in that zone. */
    now: number
  },
): Composed {
  const who = context.firstName
    ? `${context.firstName} from ${context.organisationName}`
    : context.organisationName
  if (kind === 'EN_ROUTE') {
    const window = windowText(context.eta, context.timeZone, context.now)
    return {
      subject: oneLine(`${context.organisationName}: your technician is on the way`),
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
    subject: oneLine(`${context.organisationName}: your visit is complete`),
    body: [
      `Hello ${context.customerName},`,
      '',
      `"${context.title}" is complete. Thank you for having us.`,
      '',
      context.organisationName,
    ].join('\n'),
  }
}
