// Keeps an ERP's jobs in step with fieldservice through @fieldservice/client.
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  FieldserviceClient,
  FieldserviceError,
  type Job,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '@fieldservice/client'

// Where the service answers, and a key with the read and write scopes.
export const connect = (baseUrl: string, apiKey: string) => new FieldserviceClient({ baseUrl, apiKey })

// 1. Every open job, page after page: the loop fetches the next page when it needs it.
export async function pullOpenJobs(client: FieldserviceClient): Promise<Map<string, Job>> {
  const jobs = new Map<string, Job>()
  for await (const job of client.jobs.listAll({ status: 'CREATED' })) jobs.set(job.id, job)
  return jobs
}

// 2. A new job. The client sends an Idempotency-Key and keeps it for its retries (an answer lost on
//    the way back, a 503, a 429 after Retry-After), so a retry never creates a second job.
export async function pushJob(client: FieldserviceClient, title: string): Promise<Job['id']> {
  const { job } = await client.jobs.create({ title, priority: 'HIGH', serviceDuration: 3600 })
  return job.id
}

// 3. Errors are FieldserviceErrors with a documented code (and `details` naming fields on a 400).
export async function reschedule(client: FieldserviceClient, id: string, from: string, to: string) {
  try {
    const { job } = await client.jobs.update(id, { earliestStart: from, latestEnd: to })
    return job
  } catch (error) {
    if (!(error instanceof FieldserviceError)) throw error // no answer: FieldserviceConnectionError
    switch (error.code) {
      case 'NOT_FOUND': // deleted in fieldservice meanwhile
      case 'TERMINAL_STATE': // COMPLETED or CANCELLED: nothing to reschedule
        return undefined
      case 'VALIDATION_ERROR':
        throw new Error(`rejected: ${error.message} ${JSON.stringify(error.details)}`)
      default:
        throw error
    }
  }
}

// 4. A webhook endpoint (node:http): the signature is checked on the raw body before anything else.
export function webhookHandler(secret: string, onEvent: (event: WebhookEvent) => Promise<void>) {
  return async (request: IncomingMessage, response: ServerResponse) => {
    const body = Buffer.concat(await request.toArray())
    try {
      const event = await verifyWebhook(secret, request.headers, body) // within 5 minutes, or refused
      await onEvent(event) // event.event: 'JOB_CREATED' | 'JOB_COMPLETED' | …, with typed data
      response.writeHead(204).end()
    } catch (error) {
      response.writeHead(error instanceof WebhookVerificationError ? 401 : 500).end()
    }
  }
}
