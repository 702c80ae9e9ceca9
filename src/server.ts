// Starting and stopping the service: config → database → migrations → listen; graceful shutdown.
import { buildApp } from './app.js'
import type { Config } from './config.js'
import { createDatabase } from './db/database.js'
import { migrateToLatest } from './db/migrator.js'

export interface RunningServer {
  url: string
  close(): Promise<void>
}

export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  }
}

export async function startServer(config: Config): Promise<RunningServer> {
  const database = createDatabase(config.databaseUrl, {
    sqliteSynchronous: config.sqliteSynchronous,
    pgPoolSize: config.pgPoolSize,
  })
  await migrateToLatest(database.db, database.dialect)
  const app = await buildApp({
    db: database.db,
    dialect: database.dialect,
    config,
    logger: loggerOptions(config.logLevel),
  })
  const url = await app.listen({ host: config.host, port: config.port })
  app.log.info({ dialect: database.dialect, docs: `${url}/v1/public/docs` }, 'fieldservice is listening')

  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      await app.close() // stops accepting, lets in-flight requests finish
      await database.destroy()
    })()
    return closing
  }
  return { url, close }
}

/** Closes the server on SIGINT/SIGTERM, finishing in-flight requests first. */
export function closeOnSignals(server: RunningServer): void {
  const stop = (signal: string) => {
    process.stderr.write(`\n${signal} received, shutting down\n`)
    server.close().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`shutdown failed: ${error}\n`)
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
}
