import type { AutomationRow, WebhookExecutionRow } from '../../db/types.js'
import type { Automation, Execution } from './schemas.js'
import { secretHint } from './signature.js'

/** The secret a rotation replaced, while its grace period lasts. */
function livePreviousSecret(row: AutomationRow, now: string): string | null {
  return row.previous_secret !== null && (row.previous_secret_expires_at ?? '') > now
    ? row.previous_secret
    : null
}

/** Never the secret: it is shown once, by the create and rotate responses, and nowhere else. */
export function serializeAutomation(row: AutomationRow, now: string = new Date().toISOString()): Automation {
  return {
    id: row.id,
    name: row.name,
    event: row.event as Automation['event'],
    action: row.action,
    url: row.url,
    isActive: Boolean(row.is_active),
    secretHint: secretHint(row.secret),
    previousSecretExpiresAt: livePreviousSecret(row, now) === null ? null : row.previous_secret_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function serializeExecution(row: WebhookExecutionRow): Execution {
  return {
    id: row.id,
    automationId: row.automation_id,
    eventId: row.event_id,
    webhookId: row.webhook_id,
    event: row.event as Execution['event'],
    url: row.url,
    status: row.status,
    httpStatus: row.http_status,
    error: row.error,
    durationMs: row.duration_ms,
    requestBody: JSON.parse(row.request_body),
    responseBody: row.response_body,
    redeliveryOf: row.redelivery_of,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  }
}

/** The secrets that sign now: the current one, and the previous one during its grace period. */
export function signingSecrets(row: AutomationRow, now: string = new Date().toISOString()): string[] {
  const previous = livePreviousSecret(row, now)
  return previous === null ? [row.secret] : [row.secret, previous]
}
