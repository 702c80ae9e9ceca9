// The S3 AttachmentStore against a real S3-speaking server (s3rver on loopback, started here): the
// same attachment cases as the database store (attachment-cases.ts), then what only S3 shows — the
// objects are `<prefix>/<organisation>/<job>/<attachment>`, content over one part goes up as a
// multipart upload, a failed upload leaves no object, and ATTACHMENT_STORE's URL is read as documented.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeAttachmentCases } from '../../../test/attachment-cases.js'
import { DIALECTS } from '../../../test/helpers.js'
import { parseS3StoreUrl, S3_PART_BYTES, S3AttachmentStore, type S3StoreSettings } from './s3-store.js'

const BUCKET = 'attachments'
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

let server: S3rver
let directory: string
let endpoint: string
const stores: S3AttachmentStore[] = []

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'fieldservice-s3-'))
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  })
  const { address, port } = await server.run()
  endpoint = `http://${address}:${port}`
})

afterAll(async () => {
  for (const store of stores) await store.close()
  await server.close()
  await rm(directory, { recursive: true, force: true })
})

function s3Store(prefix: string): S3AttachmentStore {
  const settings: S3StoreSettings = {
    bucket: BUCKET,
    prefix,
    endpoint,
    region: 'us-east-1',
    credentials: CREDENTIALS,
  }
  const store = new S3AttachmentStore(settings)
  stores.push(store)
  return store
}

async function objectKeys(prefix: string): Promise<string[]> {
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: CREDENTIALS,
  })
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${prefix}/` }))
    return (listed.Contents ?? []).map((o) => o.Key as string).sort()
  } finally {
    client.destroy()
  }
}

for (const dialect of DIALECTS) {
  describeAttachmentCases(`${dialect}, S3 store`, dialect, async () => ({
    store: s3Store(`cases-${dialect}`),
    storedKeys: () => objectKeys(`cases-${dialect}`),
  }))
}

describe('S3 store', () => {
  it('keys objects by organisation, uploads big content in parts, and keeps nothing of a failed upload', async () => {
    const store = s3Store('direct')
    const small = Buffer.from('%PDF-1.4 small')
    expect(await store.put('org-1/job-1/a', [small])).toMatchObject({ size: small.length })
    const big = Buffer.alloc(S3_PART_BYTES * 2 + 123, 7)
    const stored = await store.put('org-1/job-1/b', [big.subarray(0, 1000), big.subarray(1000)])
    expect(stored.size).toBe(big.length)
    const chunks: Buffer[] = []
    for await (const chunk of await store.get('org-1/job-1/b')) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).equals(big)).toBe(true)
    async function* failing() {
      yield Buffer.alloc(S3_PART_BYTES + 10)
      yield Buffer.alloc(S3_PART_BYTES + 10)
      throw new Error('client went away')
    }
    await expect(store.put('org-1/job-1/c', failing())).rejects.toThrow('client went away')
    expect(await objectKeys('direct')).toEqual(['direct/org-1/job-1/a', 'direct/org-1/job-1/b'])
    await store.delete('org-1/job-1/a')
    await store.delete('org-1/job-1/nothing-here')
    expect(await objectKeys('direct')).toEqual(['direct/org-1/job-1/b'])
  })

  it('reads ATTACHMENT_STORE as s3://bucket/prefix?endpoint=…&region=…', () => {
    expect(
      parseS3StoreUrl('s3://proofs/fieldservice/prod?endpoint=http://minio:9000&region=eu-west-1'),
    ).toEqual({
      bucket: 'proofs',
      prefix: 'fieldservice/prod',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
    })
    expect(parseS3StoreUrl('s3://proofs')).toEqual({ bucket: 'proofs', prefix: '', region: 'us-east-1' })
    expect(() => parseS3StoreUrl('https://proofs')).toThrow(/s3:\/\//)
    expect(() => parseS3StoreUrl('s3://ab')).toThrow(/3 characters/)
    expect(() => parseS3StoreUrl('s3://proofs?endpoint=minio:9000')).toThrow(/endpoint/)
  })
})
