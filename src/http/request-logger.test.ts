import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { lazyChildLogger } from './request-logger.js'

/** A server logging at `level` into an array, with a route that logs at every level and fails. */
async function serverAt(level: string) {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      callback()
    },
  })
  const app = Fastify({ logger: { level, stream }, childLoggerFactory: lazyChildLogger })
  app.get('/work', async (request) => {
    request.log.debug('debug line')
    request.log.info({ step: 1 }, 'info line')
    request.log.child({ part: 'inner' }).warn('warn line')
    throw new Error('boom')
  })
  return { app, lines }
}

describe('request logger', () => {
  it('writes what the level lets through, each line with its request id and bindings', async () => {
    const { app, lines } = await serverAt('warn')
    const response = await app.inject({ url: '/work', headers: { 'request-id': 'x' } })
    expect(response.statusCode).toBe(500)
    const messages = lines.map((line) => line.msg)
    expect(messages).not.toContain('debug line')
    expect(messages).not.toContain('info line')
    expect(messages).not.toContain('incoming request')
    const warn = lines.find((line) => line.msg === 'warn line')
    expect(warn).toMatchObject({ level: 40, part: 'inner' })
    const failure = lines.find((line) => line.level === 50)
    expect(failure?.reqId).toBe(warn?.reqId)
    expect(typeof warn?.reqId).toBe('string')
    await app.close()
  })

  it('writes every line at debug, request logging included', async () => {
    const { app, lines } = await serverAt('debug')
    await app.inject({ url: '/work' })
    const mine = lines.filter((line) => line.reqId === 'req-1')
    expect(mine.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        'incoming request',
        'debug line',
        'info line',
        'warn line',
        'request completed',
      ]),
    )
    expect(mine.find((line) => line.msg === 'info line')).toMatchObject({ level: 30, step: 1 })
    await app.close()
  })
})
