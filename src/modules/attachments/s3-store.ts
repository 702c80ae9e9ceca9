// The AttachmentStore on any S3-compatible service (AWS S3, MinIO, R2, …), chosen by
// ATTACHMENT_STORE=s3://bucket/prefix?endpoint=…&region=… (config.ts). The SDK is imported on first use,
// so a service on the database store never loads it. Objects are `<prefix>/<key>`, and keys start with
// the organisation id (service.ts).
//
// An upload of unknown length is sent in 5 MiB parts (S3's smallest multipart part): content up to
// one part is a single PutObject, larger content a multipart upload, aborted if the content fails. At
// most one part is held in memory. Checksums only when the operation requires them: other
// S3-compatible services reject or mishandle the SDK's default CRC32 trailers.
import { Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import { type AttachmentStore, type Content, ContentMeter, regrouped, type StoredContent } from './store.js'

export const S3_PART_BYTES = 5 * 1024 * 1024

export interface S3StoreSettings {
  bucket: string
  /** Prepended to every key, without a trailing slash; '' for none. */
  prefix: string
  /** A custom endpoint (MinIO, s3rver…): path-style requests. Unset: AWS. */
  endpoint?: string
  region: string
  /** Unset: the SDK's own chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
}

type Sdk = typeof import('@aws-sdk/client-s3')

export class S3AttachmentStore implements AttachmentStore {
  private loaded: Promise<{ sdk: Sdk; client: S3Client }> | undefined

  constructor(private readonly settings: S3StoreSettings) {}

  private client(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => {
      const { endpoint, region, credentials } = this.settings
      const client = new sdk.S3Client({
        region,
        ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
        ...(credentials ? { credentials } : {}),
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      })
      return { sdk, client }
    })
    return this.loaded
  }

  private objectKey(key: string): string {
    return this.settings.prefix ? `${this.settings.prefix}/${key}` : key
  }

  async put(key: string, content: Content): Promise<StoredContent> {
    const { sdk, client } = await this.client()
    const Bucket = this.settings.bucket
    const Key = this.objectKey(key)
    const meter = new ContentMeter()
    const parts = regrouped(content, S3_PART_BYTES)[Symbol.asyncIterator]()
    const first = await parts.next()
    const firstPart = first.done ? Buffer.alloc(0) : first.value
    meter.add(firstPart)
    const second = first.done ? first : await parts.next()
    if (second.done) {
      await client.send(
        new sdk.PutObjectCommand({ Bucket, Key, Body: firstPart, ContentLength: firstPart.length }),
      )
      return meter.result()
    }
    const { UploadId } = await client.send(new sdk.CreateMultipartUploadCommand({ Bucket, Key }))
    const done: { ETag: string | undefined; PartNumber: number }[] = []
    try {
      const upload = async (body: Buffer) => {
        const PartNumber = done.length + 1
        const { ETag } = await client.send(
          new sdk.UploadPartCommand({
            Bucket,
            Key,
            UploadId,
            PartNumber,
            Body: body,
            ContentLength: body.length,
          }),
        )
        done.push({ ETag, PartNumber })
      }
      await upload(firstPart)
      meter.add(second.value)
      await upload(second.value)
      for (let next = await parts.next(); !next.done; next = await parts.next()) {
        meter.add(next.value)
        await upload(next.value)
      }
      await client.send(
        new sdk.CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: done } }),
      )
    } catch (error) {
      await client.send(new sdk.AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined)
      throw error
    }
    return meter.result()
  }

  async get(key: string): Promise<Readable> {
    const { sdk, client } = await this.client()
    const object = await client.send(
      new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
    )
    const body = object.Body
    if (body instanceof Readable) return body
    if (!body) return Readable.from([])
    return Readable.fromWeb(
      (body as { transformToWebStream(): ReadableStream }).transformToWebStream() as never,
    )
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.client()
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }))
  }

  /** Releases the client's sockets (the app's close). */
  async close(): Promise<void> {
    if (this.loaded) (await this.loaded).client.destroy()
  }
}

/**
 * ATTACHMENT_STORE's `s3://bucket/prefix?endpoint=https://minio:9000&region=eu-west-1`. Region defaults
 * to us-east-1 (what most S3-compatible services accept).
 */
export function parseS3StoreUrl(raw: string): S3StoreSettings {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(`ATTACHMENT_STORE must be s3://bucket/prefix?endpoint=…, got "${raw}"`)
  }
  if (url.protocol !== 's3:' || url.hostname.length < 3) {
    throw new Error(
      `ATTACHMENT_STORE must be s3://bucket/prefix (a bucket of 3 characters or more), got "${raw}"`,
    )
  }
  const endpoint = url.searchParams.get('endpoint') ?? undefined
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+/.test(endpoint)) {
    throw new Error(`ATTACHMENT_STORE's endpoint must be an http(s) URL, got "${endpoint}"`)
  }
  return {
    bucket: url.hostname,
    prefix: decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, ''),
    ...(endpoint ? { endpoint } : {}),
    region: url.searchParams.get('region') ?? 'us-east-1',
  }
}
