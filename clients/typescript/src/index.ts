export { FieldserviceClient } from './client.js'
export {
  type ErrorDetail,
  FieldserviceConnectionError,
  FieldserviceError,
  type FieldserviceErrorCode,
  isFieldserviceError,
} from './errors.js'
export * from './generated/api.js'
export type { components, operations, paths, webhooks } from './generated/openapi.js'
export { type ClientOptions, type RequestOptions, type ResponseInfo, responseOf } from './http.js'
export type { PaginationInfo } from './pagination.js'
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from './webhooks.js'
