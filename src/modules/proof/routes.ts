// A job's proof of completion as a PDF (issue 31 §3), for the dashboard (admin API) and for an ERP that
// archives it (public API, read scope). Streamed as pdfkit writes it; like attachment content, it is
// sandboxed (nothing in it can act in this origin) and downloaded under the job's number.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { errorResponses, IdParams } from '../../http/schemas.js'
import { CONTENT_POLICY } from '../attachments/content-reply.js'
import { BinaryContent } from '../attachments/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { type Proof, proofDocument } from './pdf.js'
import { loadProof } from './service.js'

const DESCRIPTION =
  'One printable PDF: the job, its customer and address, the technician, when it was started and ' +
  'completed (in its depot’s time zone), the notes written on completing, every form’s answers, the ' +
  'photos, and the customer’s signature with their name and time; HEIC photos and files are listed by ' +
  'name. Any status: a job not completed yet says so at the top. 404 for a job that is not yours.'

const PROOF_RESPONSES = {
  200: BinaryContent('The proof, as a PDF', ['application/pdf']),
  ...errorResponses(
    'VALIDATION_ERROR',
    'UNAUTHORIZED',
    'FORBIDDEN',
    'PLAN_UPGRADE_REQUIRED',
    'RATE_LIMITED',
    'NOT_FOUND',
  ),
}

function sendProof(reply: FastifyReply, proof: Proof) {
  const filename = `${proof.number}-proof.pdf`
  return reply
    .type('application/pdf')
    .header('cache-control', 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', CONTENT_POLICY)
    .header('content-disposition', `inline; filename="${filename}"`)
    .send(proofDocument(proof))
}

/** The same route on both APIs (`operationId` differs: the documents are read together). */
function proofRoute(operationId: string): FastifyPluginAsyncTypebox<RouteOptions> {
  return async (app, { db, clock, attachments }) => {
    app.get(
      '/jobs/:id/proof',
      {
        schema: {
          operationId,
          tags: ['Attachments'],
          summary: "A job's proof of completion (PDF)",
          description: DESCRIPTION,
          params: IdParams,
          response: PROOF_RESPONSES,
        },
      },
      async (request, reply) => {
        const proof = await loadProof(
          db,
          attachments.store,
          request.auth.organisationId,
          request.params.id,
          clock(),
        )
        return sendProof(reply, proof)
      },
    )
  }
}

export const proofRoutes = proofRoute('getJobProof')
export const proofAdminRoutes = proofRoute('getJobProofPdf')
