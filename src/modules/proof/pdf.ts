// A job's proof of completion as one printable PDF (issue 31 §3): the job, where and for whom, who
// did it and when, the worker's notes, every form's answers, the photos and the customer's signature.
// Drawn with pdfkit (see docs/architecture.md): a maintained, pure-JavaScript PDF writer that embeds
// JPEG and PNG as they are, so the photos need no re-encoding here beyond sharp's downscale.
//
// The standard PDF fonts (Helvetica) cover Latin-1 and the common punctuation; text outside it is
// shown with "?" by pdfkit rather than breaking the document. A font of our own would fix that at the
// cost of shipping one (docs/operations.md says so).
import PDFDocument from 'pdfkit'

export interface ProofImage {
  /** JPEG or PNG bytes, already at print size (service.ts downscales them). */
  data: Buffer
  caption: string
}

export interface ProofForm {
  name: string
  submittedAt: string
  answers: { label: string; value: string }[]
}

export interface Proof {
  organisationName: string
  number: string
  title: string
  status: string
  customerName: string | null
  address: string | null
  workerName: string | null
  /** Local times, already in words ("Mon 30 Nov 2026, 14:32"). */
  startedAt: string | null
  completedAt: string | null
  timeZone: string
  notes: string | null
  forms: ProofForm[]
  photos: ProofImage[]
  signature: (ProofImage & { signerName: string; signedAt: string }) | null
  /** Attachments that cannot be drawn (HEIC photos, PDFs): listed by name. */
  other: string[]
  generatedAt: string
}

const MARGIN = 48
const GREY = '#555555'

/** The PDF as a stream (pdfkit's document is a Readable); ends when the document is complete. */
export function proofDocument(proof: Proof): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `Proof of completion ${proof.number}`,
      Author: proof.organisationName,
      Subject: proof.title,
    },
  })
  const width = doc.page.width - MARGIN * 2

  doc.fontSize(9).fillColor(GREY).text(proof.organisationName, { width })
  doc.moveDown(0.3)
  doc.fontSize(18).fillColor('black').text(`Proof of completion — ${proof.number}`, { width })
  doc.fontSize(13).text(proof.title, { width })
  doc.moveDown(0.6)

  const facts: [string, string | null][] = [
    ['Status', proof.status],
    ['Customer', proof.customerName],
    ['Address', proof.address],
    ['Technician', proof.workerName],
    ['Started', proof.startedAt],
    ['Completed', proof.completedAt],
    ['Times in', proof.timeZone],
  ]
  for (const [label, value] of facts) {
    if (!value) continue
    doc.fontSize(10).fillColor(GREY).text(`${label}: `, { continued: true })
    doc.fillColor('black').text(value)
  }

  section(doc, 'Notes')
  doc
    .fontSize(10)
    .fillColor(proof.notes ? 'black' : GREY)
    .text(proof.notes ?? 'None written.', { width })

  for (const form of proof.forms) {
    section(doc, `Form: ${form.name}`)
    doc.fontSize(9).fillColor(GREY).text(`Submitted ${form.submittedAt}`)
    for (const answer of form.answers) {
      doc.fontSize(10).fillColor(GREY).text(`${answer.label}: `, { continued: true })
      doc.fillColor('black').text(answer.value || '—')
    }
  }

  if (proof.photos.length > 0) {
    section(doc, `Photos (${proof.photos.length})`)
    // Two a row, each fitted into half the width and a fixed height.
    const cell = (width - 12) / 2
    const height = 190
    for (let i = 0; i < proof.photos.length; i += 2) {
      if (doc.y + height + 24 > doc.page.height - MARGIN) doc.addPage()
      const top = doc.y
      for (const [column, photo] of proof.photos.slice(i, i + 2).entries()) {
        const x = MARGIN + column * (cell + 12)
        doc.image(photo.data, x, top, { fit: [cell, height], align: 'center', valign: 'center' })
        doc
          .fontSize(8)
          .fillColor(GREY)
          .text(photo.caption, x, top + height + 2, { width: cell, align: 'center' })
      }
      doc.x = MARGIN
      doc.y = top + height + 18
    }
  }

  if (proof.signature) {
    if (doc.y + 170 > doc.page.height - MARGIN) doc.addPage()
    section(doc, 'Signature')
    const top = doc.y
    doc.image(proof.signature.data, MARGIN, top, { fit: [260, 110] })
    doc.x = MARGIN
    doc.y = top + 114
    doc
      .fontSize(10)
      .fillColor('black')
      .text(`Signed by ${proof.signature.signerName}, ${proof.signature.signedAt}`, { width })
  }

  if (proof.other.length > 0) {
    section(doc, 'Other attachments')
    doc.fontSize(10).fillColor('black').text(proof.other.join('\n'), { width })
  }

  doc.moveDown(1.5)
  doc.fontSize(8).fillColor(GREY).text(`Generated ${proof.generatedAt}`, { width })
  doc.end()
  return doc
}

function section(doc: PDFKit.PDFDocument, title: string): void {
  if (doc.y + 60 > doc.page.height - MARGIN) doc.addPage()
  doc.moveDown(0.8)
  doc.x = MARGIN
  doc.fontSize(12).fillColor('black').text(title)
  doc
    .moveTo(MARGIN, doc.y + 2)
    .lineTo(doc.page.width - MARGIN, doc.y + 2)
    .strokeColor('#cccccc')
    .stroke()
  doc.moveDown(0.4)
}

/** The whole PDF in memory: for an email attachment (the routes stream proofDocument instead). */
export async function proofPdf(proof: Proof): Promise<Buffer> {
  const doc = proofDocument(proof)
  const chunks: Buffer[] = []
  for await (const chunk of doc) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
