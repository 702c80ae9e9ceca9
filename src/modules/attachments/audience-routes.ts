// The attachment routes every API shares, told apart by their audience: the admin API (dispatchers
// and admin keys), My day (the signed-in worker's own jobs) and the public API (read scope). Each
// audience names its paths, operations and words; the handlers are the same service calls.
import type { Readable } from 'node:stream'
import type { TSchema } from '@sinclair/typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import { declaredLength, installRawBodyParser } from '../../http/raw-body.js'
import { COMMON_ERRORS, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import { sendContent } from './content-reply.js'
import {
  AttachmentListResponse,
  AttachmentParams,
  AttachmentResponse,
  CONTENT_DESCRIPTION,
  CONTENT_RESPONSES,
  JobParams,
  THUMBNAIL_RESPONSES,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_ERRORS,
  type UploadQuery,
} from './schemas.js'
import * as attachments from './service.js'
import type { AttachmentStore } from './store.js'

type Part = 'content' | 'thumbnail'

export interface Audience {
  /** Where its jobs are: `/jobs` or `/my/jobs`. */
  jobsPath: '/jobs' | '/my/jobs'
  /** The API the attachments' URLs point at. */
  base: attachments.UrlBase
  tags: string[]
  who(request: FastifyRequest): attachments.Requester
  list: { operationId: string; summary: string; description: string }
  read: Record<Part, { operationId: string; summary: string }>
  /** Said after every read's description (e.g. that other jobs are 404). */
  readNote?: string
}

export interface Upload {
  operationId: string
  summary: string
  description: string
  querystring: TSchema
}

interface Storage {
  db: Kysely<Database>
  settings: attachments.AttachmentSettings
}

/** POST <jobs>/:id/attachments: the raw body, in a plugin of its own so other routes keep JSON. */
export async function registerUpload(
  app: FastifyInstance,
  { db, settings }: Storage,
  audience: Audience,
  upload: Upload,
): Promise<void> {
  await app.register(async (uploads) => {
    installRawBodyParser(uploads)
    uploads.post<{ Params: { id: string }; Querystring: UploadQuery }>(
      `${audience.jobsPath}/:id/attachments`,
      {
        config: { rawBody: UPLOAD_CONTENT_TYPES, externalEffects: true },
        schema: {
          operationId: upload.operationId,
          tags: audience.tags,
          summary: upload.summary,
          description: upload.description,
          params: JobParams,
          querystring: upload.querystring,
          response: { 201: AttachmentResponse, ...UPLOAD_ERRORS },
        },
      },
      async (request, reply) => {
        const attachment = await attachments.addAttachment(
          db,
          settings,
          audience.who(request),
          request.params.id,
          {
            query: request.query,
            body: request.body as Readable | undefined,
            declaredLength: declaredLength(request),
          },
          audience.base,
        )
        return reply.status(201).send({ data: { attachment }, message: SUCCESS })
      },
    )
  })
}

/** GET <jobs>/:id/attachments, and each attachment's content and thumbnail. */
export function registerReads(
  app: FastifyInstance,
  db: Kysely<Database>,
  store: AttachmentStore,
  audience: Audience,
): void {
  app.get<{ Params: { id: string } }>(
    `${audience.jobsPath}/:id/attachments`,
    {
      schema: {
        ...audience.list,
        tags: audience.tags,
        params: JobParams,
        response: { 200: AttachmentListResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        attachments: await attachments.listAttachments(
          db,
          audience.who(request),
          request.params.id,
          audience.base,
        ),
      },
      message: SUCCESS,
    }),
  )

  for (const part of ['content', 'thumbnail'] as const) {
    const description = CONTENT_DESCRIPTION[part]
    app.get<{ Params: { id: string; attachmentId: string } }>(
      `${audience.jobsPath}/:id/attachments/:attachmentId/${part}`,
      {
        schema: {
          ...audience.read[part],
          tags: audience.tags,
          description: audience.readNote ? `${description} ${audience.readNote}` : description,
          params: AttachmentParams,
          response: part === 'content' ? CONTENT_RESPONSES : THUMBNAIL_RESPONSES,
        },
      },
      async (request, reply) => {
        const { id, attachmentId } = request.params
        const opened = await attachments.readAttachment(
          db,
          store,
          audience.who(request),
          id,
          attachmentId,
          part,
        )
        return sendContent(request, reply, opened)
      },
    )
  }
}
