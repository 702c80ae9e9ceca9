import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  IdParams,
  NOT_FOUND_ERROR,
  NoInputBody,
  SUCCESS,
} from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  AutomationListQuery,
  AutomationListResponse,
  AutomationResponse,
  AutomationWithSecretResponse,
  CreateAutomationBody,
  DeletedAutomationResponse,
  ExecutionResponse,
  RotateSecretBody,
  UpdateAutomationBody,
} from './schemas.js'
import * as automations from './service.js'
import { sendTestEvent } from './test-event.js'

const TAGS = ['Automations']
const URL_RULES =
  'The URL must be https, and its host must not be or resolve to a non-public address: private, ' +
  'loopback, link-local or any other special-purpose range of the IANA registries, IPv6 forms that ' +
  'carry such an IPv4 address (::ffff:127.0.0.1, 2002:7f00:1::, 64:ff9b::a00:1) and Teredo ' +
  '(2001::/32) included (http and such addresses are allowed only when the server runs with ' +
  'WEBHOOK_ALLOW_PRIVATE=true). A literal address is refused at once (400); a host name is checked ' +
  'when saved and again at every delivery, on the address connected to.'

export const automationAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, webhooks },
) => {
  app.get(
    '/automations',
    {
      schema: {
        operationId: 'listAutomations',
        tags: TAGS,
        summary: 'List automations',
        description: 'Newest first, without their signing secrets.',
        querystring: AutomationListQuery,
        response: { 200: AutomationListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await automations.listAutomations(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.get(
    '/automations/:id',
    {
      schema: {
        operationId: 'getAutomation',
        tags: TAGS,
        summary: 'Get an automation',
        description: 'Its event, URL and active flag, without its signing secret.',
        params: IdParams,
        response: { 200: AutomationResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        automation: await automations.getAutomation(db, request.auth.organisationId, request.params.id),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/automations',
    {
      schema: {
        operationId: 'createAutomation',
        tags: TAGS,
        summary: 'Create an automation: when the event occurs, POST it to the URL',
        description:
          'Each event of the organisation that matches is POSTed once as `{ event, timestamp, data }` ' +
          '(see the webhooks section for each payload), signed per Standard Webhooks with the ' +
          'returned secret. A non-2xx answer, or none within 10 s, is not retried; every attempt is in ' +
          `the execution log and can be redelivered. ${URL_RULES} The secret is shown only in this response.`,
        body: CreateAutomationBody,
        response: { 201: AutomationWithSecretResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
      // Its answer holds a secret: no Idempotency-Key, as the answer would be stored (http/idempotency.ts).
      config: { revealsSecret: true },
    },
    async (request, reply) => {
      const created = await automations.createAutomation(
        db,
        webhooks.policy,
        request.auth.organisationId,
        request.body,
      )
      return reply.status(201).send({ data: created, message: SUCCESS })
    },
  )

  app.patch(
    '/automations/:id',
    {
      schema: {
        operationId: 'updateAutomation',
        tags: TAGS,
        summary: 'Change an automation',
        description: `Only the fields sent change. Events already claimed keep the URL they were claimed with. ${URL_RULES}`,
        params: IdParams,
        body: UpdateAutomationBody,
        response: { 200: AutomationResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request) => ({
      data: {
        automation: await automations.updateAutomation(
          db,
          webhooks.policy,
          request.auth.organisationId,
          request.params.id,
          request.body,
        ),
      },
      message: SUCCESS,
    }),
  )

  for (const [action, isActive] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    app.post(
      `/automations/:id/${action}`,
      {
        schema: {
          operationId: isActive ? 'activateAutomation' : 'deactivateAutomation',
          tags: TAGS,
          summary: isActive ? 'Activate an automation' : 'Deactivate an automation',
          description: isActive
            ? 'Events that occur from now on are delivered. Idempotent. The body may be omitted.'
            : 'Events that occur from now on are not delivered (not even later). Idempotent. The body may be omitted.',
          params: IdParams,
          body: NoInputBody,
          response: { 200: AutomationResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
        },
        config: { optionalBody: true },
      },
      async (request) => ({
        data: {
          automation: await automations.setAutomationActive(
            db,
            request.auth.organisationId,
            request.params.id,
            isActive,
          ),
        },
        message: SUCCESS,
      }),
    )
  }

  app.post(
    '/automations/:id/rotate-secret',
    {
      schema: {
        operationId: 'rotateAutomationSecret',
        tags: TAGS,
        summary: 'Replace the signing secret',
        description:
          'Returns the new secret once. For gracePeriodSeconds (default 1 day) the old secret signs ' +
          'too: `webhook-signature` carries both `v1,` signatures, so a receiver verifying with either ' +
          'secret accepts the request. The body may be omitted.',
        params: IdParams,
        body: RotateSecretBody,
        response: { 201: AutomationWithSecretResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
      // Its answer holds a secret: no Idempotency-Key, as the answer would be stored (http/idempotency.ts).
      config: { optionalBody: true, revealsSecret: true },
    },
    async (request, reply) => {
      const rotated = await automations.rotateAutomationSecret(
        db,
        request.auth.organisationId,
        request.params.id,
        request.body,
      )
      return reply.status(201).send({ data: rotated, message: SUCCESS })
    },
  )

  app.post(
    '/automations/:id/test',
    {
      schema: {
        operationId: 'sendAutomationTestEvent',
        tags: TAGS,
        summary: 'Send a test event to the automation',
        description:
          "POSTs one made-up event of the automation's type (the documented payload with sample values; its " +
          'eventId starts with `test_`) to its URL, signed like every delivery, now, whether or not the ' +
          'automation is active, and answers with the execution and its outcome (SUCCESS or FAILED), which ' +
          'also joins its log. No other automation receives it. The body may be omitted.',
        params: IdParams,
        body: NoInputBody,
        response: { 201: ExecutionResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
      config: { optionalBody: true, externalEffects: true },
    },
    async (request, reply) => {
      const execution = await sendTestEvent(
        db,
        webhooks.sender,
        request.auth.organisationId,
        request.params.id,
      )
      return reply.status(201).send({ data: { execution }, message: SUCCESS })
    },
  )

  app.delete(
    '/automations/:id',
    {
      schema: {
        operationId: 'deleteAutomation',
        tags: TAGS,
        summary: 'Delete an automation and its execution log',
        description: 'Deliveries already in flight finish; nothing more is sent.',
        params: IdParams,
        response: { 200: DeletedAutomationResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request) => ({
      data: {
        automation: await automations.deleteAutomation(db, request.auth.organisationId, request.params.id),
      },
      message: SUCCESS,
    }),
  )
}
