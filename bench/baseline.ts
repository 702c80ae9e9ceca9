// The baseline: a bare node:http server that answers every request with the exact bytes the service
// gave for the scenario being measured (same status, content-type and content-length), so the ratio
// service ÷ baseline is what the service costs above HTTP itself on this machine, in this run.
// run.ts loads the scenario's response with `PUT /__bench/response` before driving it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

interface CannedResponse {
  status: number
  headers: { 'content-type': string; 'content-length': number }
  body: Buffer
}

let canned: CannedResponse = {
  status: 503,
  headers: { 'content-type': 'text/plain', 'content-length': 0 },
  body: Buffer.alloc(0),
}

function answer(response: ServerResponse): void {
  response.writeHead(canned.status, canned.headers)
  response.end(canned.body)
}

function loadCanned(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    const body = Buffer.concat(chunks)
    canned = {
      status: Number(request.headers['x-bench-status'] ?? 200),
      headers: {
        'content-type': String(request.headers['x-bench-content-type'] ?? 'application/json'),
        'content-length': body.length,
      },
      body,
    }
    response.writeHead(204).end()
  })
}

const server = createServer((request, response) => {
  if (request.url === '/__bench/response' && request.method === 'PUT') return loadCanned(request, response)
  // A request with a body is answered once the body is read, as any real server must.
  if (request.method === 'GET' || request.method === 'HEAD') return answer(response)
  request.resume()
  request.on('end', () => answer(response))
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`)
})
process.once('SIGTERM', () => server.close(() => process.exit(0)))
