// Sending one email over SMTP (SMTP_URL) with nodemailer: a maintained, dependency-free SMTP client
// (STARTTLS, AUTH, pooling, proper MIME and header encoding) — writing SMTP by hand would mean
// re-doing exactly those parts, where the bugs are. One transport per process, a connection pool.
import nodemailer, { type Transporter } from 'nodemailer'

export interface MailResult {
  ok: boolean
  error: string | null
  durationMs: number
}

export interface OutgoingMail {
  to: string
  subject: string
  text: string
  /** A stable Message-ID: a client seeing one message twice shows it once. */
  messageId: string
  /** Files sent with it (a completed job's proof PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[]
}

/** How long one SMTP conversation may take, connection to the server's answer to the message. */
export const SMTP_TIMEOUT_MS = 20_000

export class SmtpMailer {
  private readonly transport: Transporter

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 2,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    })
  }

  async send(mail: OutgoingMail): Promise<MailResult> {
    const started = performance.now()
    try {
      await this.transport.sendMail({
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        ...(mail.attachments && { attachments: mail.attachments }),
      })
      return { ok: true, error: null, durationMs: Math.round(performance.now() - started) }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      return { ok: false, error: message.slice(0, 500), durationMs: Math.round(performance.now() - started) }
    }
  }

  close(): void {
    this.transport.close()
  }
}
