import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Id, Nullable, PageQuery, Pagination, StringEnum } from '../../http/schemas.js'

const MessageKind = StringEnum(
  ['EN_ROUTE', 'COMPLETED'],
  'EN_ROUTE: the job is on its way; COMPLETED: it is done',
)
const MessageStatus = StringEnum(
  ['PENDING', 'SENT', 'FAILED'],
  'PENDING while being sent; SENT once the SMTP server accepted it; FAILED otherwise (see error)',
)

export const CustomerMessage = Type.Object(
  {
    id: Id,
    eventId: Type.String({ description: 'The outbox event (JOB_EN_ROUTE or JOB_COMPLETED) it is about' }),
    jobId: Type.String(),
    kind: MessageKind,
    recipient: Type.String({ description: "The customer's email address when it was sent" }),
    subject: Type.String(),
    body: Type.String({ description: 'The plain-text email as sent' }),
    status: MessageStatus,
    error: Nullable(Type.String()),
    durationMs: Nullable(Type.Integer()),
    createdAt: DateTime,
    completedAt: Nullable(DateTime),
  },
  { title: 'CustomerMessage' },
)
export type CustomerMessage = Static<typeof CustomerMessage>

export const CustomerMessageListQuery = Type.Object(
  {
    ...PageQuery(50),
    status: Type.Optional(MessageStatus),
    jobId: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
)
export type CustomerMessageListQuery = Static<typeof CustomerMessageListQuery>

export const CustomerMessageListResponse = Envelope(
  Type.Object({ customerMessages: Type.Array(CustomerMessage), pagination: Pagination }),
  'A page of customer emails, newest first',
)
