// scripts/generate-client.ts: the committed client matches openapi/public-v1.json, an edited generated
// file is caught as drift, and an operation added to the document becomes a method with no other change.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  driftedFiles,
  type GeneratedFile,
  generateClient,
  type OpenApiDocument,
  SOURCE,
  TARGET_DIR,
} from '../../scripts/generate-client.js'

describe('the TypeScript client generator', () => {
  let document: OpenApiDocument
  let files: GeneratedFile[]
  let dir: string

  beforeAll(async () => {
    document = JSON.parse(await readFile(SOURCE, 'utf8'))
    files = await generateClient(document)
    dir = await mkdtemp(join(tmpdir(), 'fieldservice-client-'))
    for (const file of files) await writeFile(join(dir, file.name), file.content)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('has committed exactly what the document generates', async () => {
    expect(await driftedFiles(files, TARGET_DIR)).toEqual([])
  })

  it('reports a generated file edited by hand, deleted, or left over', async () => {
    expect(await driftedFiles(files, dir)).toEqual([])
    const api = join(dir, 'api.ts')
    const original = await readFile(api, 'utf8')
    await writeFile(api, original.replace("'NOT_FOUND'", "'NOT_FOUND' | 'MADE_UP'"))
    expect(await driftedFiles(files, dir)).toEqual(['api.ts'])
    await writeFile(api, original)
    await rm(join(dir, 'openapi.ts'))
    expect(await driftedFiles(files, dir)).toEqual(['openapi.ts'])
    await writeFile(join(dir, 'openapi.ts'), files[0]?.content ?? '')
    await writeFile(join(dir, 'old.ts'), '')
    expect(await driftedFiles(files, dir)).toEqual(['old.ts'])
    await rm(join(dir, 'old.ts'))
  })

  it('names methods after their operationId and tag, and lists the documented error codes', () => {
    const api = files.find((f) => f.name === 'api.ts')?.content ?? ''
    for (const signature of [
      'list(query?: ListJobsQuery, options?: RequestOptions): Promise<ListJobsResult>',
      "listAll(query?: Omit<ListJobsQuery, 'page'>, options?: RequestOptions)",
      'create(body: CreateJobBody, options?: RequestOptions): Promise<CreateJobResult>',
      "get(id: operations['getJob']['parameters']['path']['id'], options?: RequestOptions)",
      "update(id: operations['updateJob']['parameters']['path']['id'], body: UpdateJobBody, options?: RequestOptions)",
      "delete(id: operations['deleteJob']['parameters']['path']['id'], options?: RequestOptions)",
      'readonly jobs: JobsApi',
      'readonly customers: CustomersApi',
      'readonly shifts: ShiftsApi',
    ]) {
      expect(api).toContain(signature)
    }
    for (const code of [
      'NOT_FOUND',
      'VALIDATION_ERROR',
      'RATE_LIMITED',
      'IDEMPOTENCY_KEY_REUSED',
      'TERMINAL_STATE',
    ]) {
      expect(api).toContain(`  | '${code}'`)
    }
  })

  it('turns a new operation of the document into a method, with an iterator when it pages', async () => {
    const events = {
      get: {
        operationId: 'listEvents',
        tags: ['Events'],
        summary: 'List events',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 500 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'A page of events',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    data: {
                      type: 'object',
                      properties: {
                        events: { type: 'array', items: { type: 'object' } },
                        pagination: { $ref: '#/components/schemas/CursorPagination' },
                      },
                    },
                  },
                },
              },
            },
          },
          '410': {
            description: 'Cursor too old',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { code: { type: 'string', enum: ['CURSOR_EXPIRED'] } },
                },
              },
            },
          },
        },
      },
    }
    const grown = structuredClone(document)
    grown.paths = { ...grown.paths, '/events': events as NonNullable<OpenApiDocument['paths']>[string] }
    const api = (await generateClient(grown)).find((f) => f.name === 'api.ts')?.content ?? ''
    expect(api).toContain('export class EventsApi {')
    expect(api).toContain('readonly events: EventsApi')
    expect(api).toContain(
      'list(query?: ListEventsQuery, options?: RequestOptions): Promise<ListEventsResult>',
    )
    expect(api).toContain("listAll(query?: Omit<ListEventsQuery, 'page'>")
    expect(api).toContain("query ?? {}, 'events', 500)")
    expect(api).toContain("  | 'CURSOR_EXPIRED'")
  })
})
