import type { AutomationRow, WebhookExecutionRow } from '../../db/types.js'
import type { Automation, Execution } from './schemas.js'
import { secretHint } from './signature.js'

/** Event ids of "Send test event" deliveries (test-event.ts) start with this. */
export const TEST_EVENT_PREFIX = 'test_'

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
    isTest: row.event_id.startsWith(TEST_EVENT_PREFIX),
    webhookId: row.webhook_id,
    event: row.event as Execution['event'],
    url: row.url,
    status: row.status,
    httpStatus: row.http_status,
    error: row.error,
    durationMs: row.duration_ms,
    requestBody: JSON.parse(row.request_body),
    responseBody: row.response_body,
    responseHeaders: row.response_headers === null ? null : JSON.parse(row.response_headers),
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
