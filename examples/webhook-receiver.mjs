// Verifies fieldservice webhooks (Standard Webhooks) with Node alone:
// WEBHOOK_SECRET=whsec_… PORT=4000 node examples/webhook-receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'

const key = Buffer.from(process.env.WEBHOOK_SECRET.replace(/^whsec_/, ''), 'base64')
createServer(async (req, res) => {
  const body = Buffer.concat(await req.toArray()) // verify the raw bytes, before any JSON parsing
  const { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': signatures = '' } = req.headers
  const mac = createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest()
  const signed = signatures
    .split(' ')
    .some((s) => s.startsWith('v1,') && safeEqual(Buffer.from(s.slice(3), 'base64'), mac))
  if (!signed || Math.abs(Date.now() / 1000 - ts) > 300) return res.writeHead(401).end('bad signature')
  console.log(body.toString()) // { "event", "timestamp", "data" }
  res.writeHead(204).end()
}).listen(Number(process.env.PORT ?? 4000), '127.0.0.1')

const safeEqual = (a, b) => a.length === b.length && timingSafeEqual(a, b)
