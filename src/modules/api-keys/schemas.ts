import { type Static, Type } from '@sinclair/typebox'
import {
  DateTime,
  DateTimeInput,
  Envelope,
  errorResponses,
  Id,
  Nullable,
  PageQuery,
  Pagination,
  RotationBody,
  StringEnum,
} from '../../http/schemas.js'
import { MAX_RATE_LIMIT_PER_MINUTE, SCOPES } from './key.js'

export const ApiKeyScope = StringEnum(
  SCOPES,
  'read: GET on the public API; write: public API writes; admin: everything, including this admin API',
)

export const ApiKey = Type.Object(
  {
    id: Id,
    name: Type.String(),
    prefix: Type.String({
      description: 'The first characters of the key, to recognise it; the secret itself is never shown again',
      examples: ['svc_live_3kT9qWbZ'],
    }),
    scopes: Type.Array(ApiKeyScope),
    rateLimitPerMinute: Type.Integer(),
    createdAt: DateTime,
    lastUsedAt: Nullable(
      Type.String({ format: 'date-time', description: 'Last authenticated request, to the minute' }),
    ),
    expiresAt: Nullable(Type.String({ format: 'date-time', description: 'null: never expires' })),
    revokedAt: Nullable(Type.String({ format: 'date-time', description: 'null: not revoked' })),
  },
  { title: 'ApiKey' },
)
export type ApiKey = Static<typeof ApiKey>

export const ApiKeyListQuery = Type.Object(
  {
    ...PageQuery(50),
    includeRevoked: Type.Optional(
      Type.Boolean({ default: true, description: 'false lists only keys that are not revoked' }),
    ),
  },
  { additionalProperties: false },
)
export type ApiKeyListQuery = Static<typeof ApiKeyListQuery>

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    scopes: Type.Array(ApiKeyScope, {
      minItems: 1,
      maxItems: SCOPES.length,
      uniqueItems: true,
      description: "At most the caller's own scopes (admin covers every scope)",
    }),
    rateLimitPerMinute: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_RATE_LIMIT_PER_MINUTE,
        description: "Requests per minute; omitted: the server's DEFAULT_RATE_LIMIT_PER_MINUTE (100)",
      }),
    ),
    expiresAt: Type.Optional({
      ...DateTimeInput,
      description: 'Must be in the future; omitted: the key never expires',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'ERP integration', scopes: ['read', 'write'], rateLimitPerMinute: 600 }],
  },
)
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>

export const RotateApiKeyBody = RotationBody(
  0,
  'How long the old key keeps working (at most 7 days and never past its own expiry); 0 revokes it at once',
)
export type RotateApiKeyBody = Static<typeof RotateApiKeyBody>

const SECRET_DESCRIPTION = 'The full key: shown only in this response, store it now'

export const ApiKeyListResponse = Envelope(
  Type.Object({ apiKeys: Type.Array(ApiKey), pagination: Pagination }),
  'A page of API keys, newest first',
)
export const ApiKeyResponse = Envelope(Type.Object({ apiKey: ApiKey }), 'The API key')
export const CreatedApiKeyResponse = Envelope(
  Type.Object({
    apiKey: ApiKey,
    key: Type.String({ description: SECRET_DESCRIPTION, examples: ['svc_live_3kT9qWbZ…'] }),
  }),
  'The new API key, with its secret',
)
export const RotatedApiKeyResponse = Envelope(
  Type.Object({
    apiKey: ApiKey,
    key: Type.String({ description: SECRET_DESCRIPTION, examples: ['svc_live_3kT9qWbZ…'] }),
    previous: ApiKey,
  }),
  'The replacement key, with its secret, and the old key as it is now (revoked, or expiring)',
)

export const CONFLICT_ERROR = errorResponses(
  ['KEY_ALREADY_ROTATED', 'The key was already rotated: it has a successor'],
  ['CONFLICT', 'The key is revoked or has expired'],
)
