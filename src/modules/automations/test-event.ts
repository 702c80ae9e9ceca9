// "Send test event": one signed delivery of a made-up event of the automation's type, to its URL,
// now, recorded in its execution log like any other (and so redeliverable). Only this automation
// receives it — it never enters the outbox — and it is sent whether or not the automation is active,
// so a receiver can be checked before it goes live. The data has the documented shape with sample
// values; receivers can tell a test by its event id prefix (`test_`, shown as `isTest` in the log).
import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, WebhookExecutionRow } from '../../db/types.js'
import { notFound } from '../../http/errors.js'
import type { EventData, EventType } from '../events/service.js'
import type { WebhookSender } from './delivery.js'
import { deliver, payloadOf } from './dispatcher.js'
import * as repository from './repository.js'
import type { Execution } from './schemas.js'
import { serializeExecution, signingSecrets, TEST_EVENT_PREFIX } from './serialize.js'

/** Sample `data` of each event, in the shape its schema documents. */
export function sampleEventData(event: EventType, at: string): EventData[EventType] {
  const jobId = `${TEST_EVENT_PREFIX}job`
  const title = 'Test event from fieldservice'
  const start = new Date(Date.parse(at) + 3_600_000).toISOString()
  const end = new Date(Date.parse(at) + 7_200_000).toISOString()
  const samples: EventData = {
    JOB_CREATED: {
      jobId,
      title,
      status: 'CREATED',
      description: 'A sample job: no real job was created',
      priority: 'NORMAL',
      customerId: null,
      locationId: null,
      jobLatitude: '51.5072',
      jobLongitude: '-0.1276',
      serviceDuration: 1800,
      timeWindowType: 'HARD',
      earliestStart: start,
      latestEnd: end,
      createdAt: at,
      number: 'J-1001',
      address: 'Trafalgar Square, London WC2N 5DN',
      seriesId: null,
      occurrenceDate: null,
      dueBy: null,
    },
    JOB_UPDATED: {
      jobId,
      title,
      status: 'CREATED',
      updatedAt: at,
      changes: { priority: { previous: 'NORMAL', current: 'HIGH' } },
    },
    STATUS_CHANGED: { jobId, title, status: 'ASSIGNED', previousStatus: 'CREATED', changedAt: at },
    JOB_ASSIGNED: {
      jobId,
      title,
      status: 'ASSIGNED',
      customerId: null,
      assignedUserId: `${TEST_EVENT_PREFIX}user`,
      shiftId: null,
      scheduledStart: start,
      scheduledEnd: end,
    },
    JOB_UNASSIGNED: { jobId, title, status: 'CREATED', previousAssignedUserId: `${TEST_EVENT_PREFIX}user` },
    JOB_COMPLETED: {
      jobId,
      title,
      status: 'COMPLETED',
      customerId: null,
      assignedUserId: `${TEST_EVENT_PREFIX}user`,
      completedAt: at,
      attachments: [],
    },
    JOB_ETA_CHANGED: {
      jobId,
      eta: end,
      previousEta: start,
      risk: 'AT_RISK',
    },
    JOB_CANCELLED: {
      jobId,
      title,
      status: 'CANCELLED',
      customerId: null,
      assignedUserId: null,
      previousStatus: 'CREATED',
      cancelledAt: at,
      reason: 'Test event',
    },
    FORM_SUBMITTED: {
      submissionId: `${TEST_EVENT_PREFIX}submission`,
      jobId,
      title,
      form: 'test',
      answers: { note: 'A sample answer' },
      submittedByUserId: null,
      submittedAt: at,
    },
    JOB_EN_ROUTE: {
      jobId,
      eta: start,
      trackingUrl: 'https://fieldservice.example/t/test-event-not-a-real-link',
      worker: { firstName: 'Sam' },
    },
    ATTACHMENT_ADDED: {
      attachmentId: `${TEST_EVENT_PREFIX}attachment`,
      jobId,
      title,
      kind: 'PHOTO',
      contentType: 'image/jpeg',
      sizeBytes: 183_402,
      filename: 'boiler-after.jpg',
      signerName: null,
      signedAt: null,
      uploadedBy: null,
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      contentUrl: `/v1/public/jobs/${jobId}/attachments/${TEST_EVENT_PREFIX}attachment/content`,
    },
  }
  return samples[event]
}

export async function sendTestEvent(
  db: Kysely<Database>,
  sender: WebhookSender,
  organisationId: string,
  automationId: string,
): Promise<Execution> {
  const automation = await repository.findAutomation(db, organisationId, automationId)
  if (!automation) throw notFound('Automation')
  const event = automation.event as EventType
  const now = nowIso()
  const id = newId()
  const row: WebhookExecutionRow = {
    id,
    organisation_id: organisationId,
    automation_id: automation.id,
    event_id: `${TEST_EVENT_PREFIX}${newId()}`,
    webhook_id: `msg_${id}`,
    event,
    url: automation.url,
    status: 'PENDING',
    http_status: null,
    error: null,
    duration_ms: null,
    request_body: payloadOf({ event, occurred_at: now, data: JSON.stringify(sampleEventData(event, now)) }),
    response_body: null,
    response_headers: null,
    redelivery_of: null,
    created_at: now,
    completed_at: null,
  }
  await repository.insertExecution(db, row)
  return serializeExecution(await deliver(db, sender, { row, secrets: signingSecrets(automation, now) }))
}
