// Checks a webhook body against the schema the OpenAPI `webhooks` section documents for its event.
import { Ajv } from 'ajv'
import formatsModule from 'ajv-formats'
import { expect } from 'vitest'
import { FeedEvent } from '../src/modules/events/feed-schemas.js'
import { EVENT_PAYLOADS, EVENT_TYPES, type EventType } from '../src/modules/events/schemas.js'

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = ((formatsModule as unknown as { default?: typeof formatsModule }).default ??
  formatsModule) as unknown as (ajv: Ajv) => Ajv
const ajv = addFormats(new Ajv({ strict: false, allErrors: true, allowUnionTypes: true }))
export const payloadValidators = Object.fromEntries(
  EVENT_TYPES.map((event) => [event, ajv.compile(EVENT_PAYLOADS[event])]),
) as Record<EventType, ReturnType<Ajv['compile']>>

/** `{ event, timestamp, data }` must match its event's payload schema exactly (no extra fields). */
export function assertDocumentedPayload(payload: { event: string; timestamp: string; data: unknown }): void {
  const validate = payloadValidators[payload.event as EventType]
  expect(validate, `unknown event ${payload.event}`).toBeDefined()
  const valid = validate(payload)
  expect(validate.errors ?? [], payload.event).toEqual([])
  expect(valid).toBe(true)
}

const feedEventValidator = ajv.compile(FeedEvent)

/** `{ id, event, timestamp, data }` of the event feed must match its documented schema exactly. */
export function assertDocumentedFeedEvent(event: unknown): void {
  const valid = feedEventValidator(event)
  expect(feedEventValidator.errors ?? [], JSON.stringify(event).slice(0, 200)).toEqual([])
  expect(valid).toBe(true)
}
