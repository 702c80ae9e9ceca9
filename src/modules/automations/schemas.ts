import { type Static, Type } from '@sinclair/typebox'
import {
  DateTime,
  Envelope,
  EXAMPLE_ID,
  errorResponses,
  Id,
  Nullable,
  PageQuery,
  Pagination,
  RotationBody,
  StringEnum,
} from '../../http/schemas.js'
import { EVENT_TYPES } from '../events/service.js'

export const DEFAULT_GRACE_PERIOD_SECONDS = 86_400

export const EventName = StringEnum(EVENT_TYPES, 'The event that triggers the automation (spec §6)')
export const AutomationAction = StringEnum(
  ['SEND_WEBHOOK'],
  'What the automation does: POST the event to url',
)
export const ExecutionStatus = StringEnum(
  ['PENDING', 'SUCCESS', 'FAILED'],
  'PENDING while the request is in flight; SUCCESS when the receiver answered 2xx; FAILED otherwise',
)

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Where the events are POSTed: an absolute https URL on the public internet (http and private ' +
    'addresses only when the server runs with WEBHOOK_ALLOW_PRIVATE=true)',
  examples: ['https://erp.example.invalid/hooks/fieldservice'],
})

export const Automation = Type.Object(
  {
    id: Id,
    name: Type.String(),
    event: EventName,
    action: AutomationAction,
    url: Type.String(),
    isActive: Type.Boolean(),
    secretHint: Type.String({
      description: 'The start of the signing secret, to tell secrets apart; the secret is shown only once',
      examples: ['whsec_Zm9v…'],
    }),
    previousSecretExpiresAt: Nullable(
      Type.String({
        format: 'date-time',
        description:
          'After a rotation: until when the previous secret also signs; null when it no longer does',
      }),
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'Automation' },
)
export type Automation = Static<typeof Automation>

export const AutomationListQuery = Type.Object(
  {
    ...PageQuery(50),
    event: Type.Optional(EventName),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type AutomationListQuery = Static<typeof AutomationListQuery>

export const CreateAutomationBody = Type.Object(
  {
    name: Type.Optional({ ...Name, description: 'Omitted: "<event> webhook"' }),
    event: EventName,
    action: Type.Optional({ ...AutomationAction, default: 'SEND_WEBHOOK' }),
    url: Url,
    isActive: Type.Optional(Type.Boolean({ default: true, description: 'Omitted: active at once' })),
  },
  {
    additionalProperties: false,
    examples: [
      { name: 'ERP: completed jobs', event: 'JOB_COMPLETED', url: 'https://erp.example.invalid/hooks' },
    ],
  },
)
export type CreateAutomationBody = Static<typeof CreateAutomationBody>

export const UpdateAutomationBody = Type.Object(
  {
    name: Type.Optional(Name),
    event: Type.Optional(EventName),
    url: Type.Optional(Url),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, examples: [{ url: 'https://erp.example.invalid/hooks/v2' }] },
)
export type UpdateAutomationBody = Static<typeof UpdateAutomationBody>

export const RotateSecretBody = RotationBody(
  DEFAULT_GRACE_PERIOD_SECONDS,
  'How long the old secret keeps signing beside the new one (two `v1,` signatures), so the ' +
    'receiver can switch without failing a delivery; default 1 day, at most 7; 0 drops it at once',
)
export type RotateSecretBody = Static<typeof RotateSecretBody>

const Secret = Type.String({
  description:
    'The signing secret: shown only in this response, store it now. Verify each webhook with it ' +
    '(Standard Webhooks; see the README)',
  examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
})

export const AutomationListResponse = Envelope(
  Type.Object({ automations: Type.Array(Automation), pagination: Pagination }),
  'A page of automations, newest first',
)
export const AutomationResponse = Envelope(Type.Object({ automation: Automation }), 'The automation')
export const AutomationWithSecretResponse = Envelope(
  Type.Object({ automation: Automation, secret: Secret }),
  'The automation, with its signing secret',
)
export const DeletedAutomationResponse = Envelope(
  Type.Object({ automation: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The automation is deleted, with its execution log',
)

export const ExecutionParams = Type.Object(
  {
    id: Type.String({ description: 'Automation id', examples: [EXAMPLE_ID] }),
    executionId: Type.String({ description: 'Execution id', examples: [EXAMPLE_ID] }),
  },
  { additionalProperties: false },
)
export type ExecutionParams = Static<typeof ExecutionParams>

export const Execution = Type.Object(
  {
    id: Id,
    automationId: Id,
    eventId: Type.String({ description: 'The event delivered; the same for every delivery of one event' }),
    isTest: Type.Boolean({
      description:
        'A "Send test event" delivery: sample data, no real change (its eventId starts with test_)',
    }),
    webhookId: Type.String({
      description: 'The `webhook-id` header sent: unique per delivery and kept by its redeliveries',
    }),
    event: EventName,
    url: Type.String({ description: 'The URL the request went to' }),
    status: ExecutionStatus,
    httpStatus: Nullable(Type.Integer({ description: "The receiver's HTTP status; null when none came" })),
    error: Nullable(Type.String({ description: 'Why it failed: HTTP status, timeout, connection error' })),
    durationMs: Nullable(Type.Integer({ description: 'From sending to the end of the answer (ms)' })),
    requestBody: Type.Object(
      { event: EventName, timestamp: DateTime, data: Type.Object({}, { additionalProperties: true }) },
      { description: 'The body sent, exactly as signed', additionalProperties: false },
    ),
    responseBody: Nullable(Type.String({ description: 'The first 2 KB of the answer' })),
    responseHeaders: Nullable(
      Type.Record(Type.String(), Type.String(), {
        description:
          "The answer's headers, names lower-case (set-cookie left out, at most 4 KB in all); null when no answer came",
      }),
    ),
    redeliveryOf: Nullable(Type.String({ description: 'The execution this one redelivers' })),
    createdAt: DateTime,
    completedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'WebhookExecution' },
)
export type Execution = Static<typeof Execution>

const executionFilters = {
  status: Type.Optional(ExecutionStatus),
  event: Type.Optional(EventName),
}
export const AutomationExecutionListQuery = Type.Object(
  { ...PageQuery(50), ...executionFilters },
  { additionalProperties: false },
)
export const ExecutionListQuery = Type.Object(
  { ...PageQuery(50), ...executionFilters, automationId: Type.Optional(Type.String()) },
  { additionalProperties: false },
)
export type ExecutionListQuery = Static<typeof ExecutionListQuery>

export const ExecutionListResponse = Envelope(
  Type.Object({ executions: Type.Array(Execution), pagination: Pagination }),
  'A page of webhook executions, newest first',
)
export const ExecutionResponse = Envelope(Type.Object({ execution: Execution }), 'The webhook execution')

export const IN_FLIGHT_ERROR = errorResponses(['CONFLICT', 'The execution is still in flight'])
