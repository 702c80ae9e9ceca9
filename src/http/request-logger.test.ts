import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { lazyChildLogger, RequestLines, writesInfo } from './request-logger.js'

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

  it('tells which logger settings write info lines (request logging is off for the others)', () => {
    expect(writesInfo({ level: 'info' })).toBe(true)
    expect(writesInfo({ level: 'debug' })).toBe(true)
    expect(writesInfo({ level: 'trace' })).toBe(true)
    expect(writesInfo({})).toBe(true)
    expect(writesInfo(true)).toBe(true)
    expect(writesInfo({ level: 'warn' })).toBe(false)
    expect(writesInfo({ level: 'silent' })).toBe(false)
    expect(writesInfo(false)).toBe(false)
    expect(writesInfo(undefined)).toBe(false)
  })

  it('skips the request lines when told the level drops them, and only those', async () => {
    const lines: Record<string, unknown>[] = []
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
        callback()
      },
    })
    const serve = async (info: boolean) => {
      const app = Fastify({ logger: { level: 'info', stream }, logController: new RequestLines(info) })
      app.get('/ok', async (request) => {
        request.log.info('handler line')
        return { ok: true }
      })
      await app.inject({ url: '/ok' })
      await app.close()
    }
    await serve(true)
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'handler line', 'request completed'])
    lines.length = 0
    await serve(false)
    expect(lines.map((line) => line.msg)).toEqual(['handler line'])
  })
})
