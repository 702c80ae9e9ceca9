// A TCP proxy the tests can cut and restore, to take PostgreSQL or Redis "down" for one service
// without stopping the machine's shared server.
import { once } from 'node:events'
import { createConnection, createServer, type Socket } from 'node:net'

export interface TcpProxy {
  port: number
  /** Refuses new connections and drops every open one, as a stopped server would. */
  cut(): void
  /**
   * Keeps connections open but forwards nothing until `restore()` (then delivers what was held), as
   * a stalled or overloaded server would.
   */
  stall(): void
  /** Accepts and forwards connections again. */
  restore(): void
  close(): Promise<void>
}

/** `listenPort` 0 (the default) takes a free port; a given one lets a test bring a refused port up. */
export async function startTcpProxy(
  targetHost: string,
  targetPort: number,
  listenPort = 0,
): Promise<TcpProxy> {
  let up = true
  let stalled = false
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = createServer((client) => {
    track(client)
    if (!up) {
      client.destroy()
      return
    }
    const upstream = createConnection(targetPort, targetHost)
    track(upstream)
    client.pipe(upstream)
    upstream.pipe(client)
    if (stalled) {
      client.pause()
      upstream.pause()
    }
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  server.listen(listenPort, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  return {
    port,
    cut() {
      up = false
      for (const socket of sockets) socket.destroy()
    },
    stall() {
      stalled = true
      for (const socket of sockets) socket.pause()
    },
    restore() {
      up = true
      if (stalled) {
        stalled = false
        for (const socket of sockets) socket.resume()
      }
    },
    async close() {
      up = false
      for (const socket of sockets) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}
