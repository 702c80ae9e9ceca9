// The attachments of a job as both APIs show them, and what an upload takes: the content as the raw
// request body (its Content-Type is not trusted: the bytes are sniffed) and its metadata in the query.
import { type Static, Type } from '@sinclair/typebox'
import {
  DateTime,
  DateTimeInput,
  Envelope,
  EXAMPLE_ID,
  errorResponses,
  Nullable,
  StringEnum,
} from '../../http/schemas.js'

export const MiB = 1024 * 1024
/** Photos and signatures as phones send them (downscaled to ≤ 2048 px and re-encoded). */
export const MAX_IMAGE_BYTES = 10 * MiB
/** What an admin attaches (a PDF, mostly). */
export const MAX_FILE_BYTES = 25 * MiB

export const ATTACHMENT_KINDS = ['PHOTO', 'SIGNATURE', 'FILE'] as const
export const AttachmentKind = StringEnum(
  ATTACHMENT_KINDS,
  'PHOTO: JPEG, PNG, WebP or HEIC/HEIF, ≤ 10 MiB; SIGNATURE: PNG drawn on the phone, ≤ 10 MiB, with its ' +
    "signer's name; FILE: PDF or any of the photo types, ≤ 25 MiB (admin API only)",
)

export const Attachment = Type.Object(
  {
    id: Type.String({ examples: [EXAMPLE_ID] }),
    jobId: Type.String(),
    kind: AttachmentKind,
    contentType: Type.String({
      description: 'What the content is, sniffed from its bytes (never the uploader’s Content-Type)',
      examples: ['image/jpeg'],
    }),
    sizeBytes: Type.Integer({ minimum: 0 }),
    filename: Type.String({ description: 'The name given at upload, without any folder part' }),
    signerName: Nullable(Type.String({ description: 'SIGNATURE: who signed; else null' })),
    signedAt: Nullable(Type.String({ ...DateTime, description: 'SIGNATURE: when they signed; else null' })),
    uploadedBy: Nullable(
      Type.String({
        description: 'The user who uploaded it (a dashboard or phone session); null through an API key',
      }),
    ),
    createdAt: DateTime,
    sha256: Type.String({ description: 'Lower-case hex SHA-256 of the content; also its ETag' }),
    contentUrl: Type.String({ description: 'Where to read the content, on the API that answered' }),
    thumbnailUrl: Nullable(
      Type.String({
        description: 'A WebP preview ≤ 320 px (JPEG, PNG and WebP only); null for HEIC and PDF',
      }),
    ),
  },
  { additionalProperties: false, title: 'Attachment' },
)
export type Attachment = Static<typeof Attachment>

export const AttachmentParams = Type.Object(
  {
    id: Type.String({ description: 'The job', examples: [EXAMPLE_ID] }),
    attachmentId: Type.String({ description: 'The attachment', examples: [EXAMPLE_ID] }),
  },
  { additionalProperties: false },
)

const uploadProperties = {
  filename: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The file’s name, for people (never used to decide its type). Default: `<kind>.<ext>`',
      examples: ['boiler-before.jpg'],
    }),
  ),
  signerName: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'SIGNATURE only, and required there: who signed',
      examples: ['Priya Patel'],
    }),
  ),
  signedAt: Type.Optional(
    Type.String({
      ...DateTimeInput,
      description: `SIGNATURE only: when they signed (default: now). ${DateTimeInput.description}`,
    }),
  ),
}

export const UploadQuery = Type.Object(
  { kind: AttachmentKind, ...uploadProperties },
  { additionalProperties: false },
)
export type UploadQuery = Static<typeof UploadQuery>

export const MyUploadQuery = Type.Object(
  {
    kind: StringEnum(
      ['PHOTO', 'SIGNATURE'] as const,
      'PHOTO (JPEG, PNG, WebP, HEIC) or SIGNATURE (PNG), ≤ 10 MiB',
    ),
    ...uploadProperties,
  },
  { additionalProperties: false },
)

export const AttachmentResponse = Envelope(Type.Object({ attachment: Attachment }), 'One attachment')
export const AttachmentListResponse = Envelope(
  Type.Object({ attachments: Type.Array(Attachment, { description: 'Newest first; every one of the job' }) }),
  "A job's attachments",
)
export const DeletedAttachmentResponse = Envelope(
  Type.Object({
    attachment: Type.Object({ id: Type.String(), deletedAt: DateTime }, { additionalProperties: false }),
  }),
  'The attachment and its content are gone',
)

/** What stored content can be (sniff.ts). */
const STORED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'application/pdf']

/** The documented body of an upload (the route itself reads the raw stream). */
export const UPLOAD_CONTENT_TYPES = [
  'application/octet-stream',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heif',
  'application/pdf',
] as const

/** The documented 200 of a content or thumbnail route: bytes of these types, not JSON. */
export const BinaryContent = (description: string, types: readonly string[]) => ({
  description,
  content: Object.fromEntries(types.map((type) => [type, { schema: Type.String({ format: 'binary' }) }])),
})

export const JobParams = Type.Object(
  { id: Type.String({ description: 'The job', examples: [EXAMPLE_ID] }) },
  { additionalProperties: false },
)

export const UPLOAD_DESCRIPTION =
  'The content is the raw request body (any Content-Type: it is not trusted), the metadata is in the ' +
  'query: `kind`, `filename`, and for a SIGNATURE `signerName` (required) and `signedAt` (default now). ' +
  'The type is read from the bytes: PHOTO takes JPEG, PNG, WebP and HEIC/HEIF; SIGNATURE PNG only; FILE ' +
  'PDF and the photo types; anything else is 415 UNSUPPORTED_MEDIA_TYPE naming what was found. A body ' +
  'over its kind’s limit (10 MiB for PHOTO and SIGNATURE) is 413 PAYLOAD_TOO_LARGE, refused as soon as ' +
  'the limit is passed (at once when Content-Length says so), and nothing is stored; one that would take the organisation past its ' +
  'quota is 422 ATTACHMENT_QUOTA_EXCEEDED. JPEG, PNG and WebP get a WebP thumbnail ≤ 320 px. Sends ' +
  'ATTACHMENT_ADDED. With an Idempotency-Key, a retry with the same key, path and query gets the first ' +
  'answer and stores nothing more: the key stands for the bytes too (they are not part of its fingerprint).'

export const UPLOAD_ERRORS = {
  ...errorResponses('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'PLAN_UPGRADE_REQUIRED', 'RATE_LIMITED'),
  ...errorResponses('NOT_FOUND', 'ATTACHMENT_QUOTA_EXCEEDED'),
  ...errorResponses(
    [
      'PAYLOAD_TOO_LARGE',
      'The content is larger than its kind allows: 10 MiB for PHOTO and SIGNATURE, 25 MiB for FILE',
    ],
    [
      'UNSUPPORTED_MEDIA_TYPE',
      'The content is not of a type its kind takes (read from its bytes); the message names what it is',
    ],
  ),
}

const CONTENT_HEADERS =
  'Answered with its sniffed Content-Type, Content-Length, a strong ETag (its SHA-256; If-None-Match → ' +
  '304), Content-Disposition (inline for images, attachment for anything else, the name made safe), ' +
  "X-Content-Type-Options: nosniff and Content-Security-Policy: sandbox; default-src 'none'."

export const CONTENT_DESCRIPTION = {
  content: `The bytes as uploaded. ${CONTENT_HEADERS}`,
  thumbnail: `A WebP preview at most 320 px on its longer side; 404 for an attachment without one (HEIC, PDF). ${CONTENT_HEADERS}`,
} as const

const NOT_MODIFIED = { description: 'Not Modified: your copy (If-None-Match) is current', type: 'null' }

export const CONTENT_RESPONSES = {
  200: BinaryContent('The content, of its sniffed type', STORED_TYPES),
  304: NOT_MODIFIED,
  ...errorResponses(
    'VALIDATION_ERROR',
    'UNAUTHORIZED',
    'FORBIDDEN',
    'PLAN_UPGRADE_REQUIRED',
    'RATE_LIMITED',
    'NOT_FOUND',
  ),
}
export const THUMBNAIL_RESPONSES = {
  ...CONTENT_RESPONSES,
  200: BinaryContent('The thumbnail', ['image/webp']),
}
