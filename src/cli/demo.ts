// `fieldservice demo`: a realistic organisation to explore, two keys to explore it with, and the
// service itself, on the embedded SQLite database by default.
import { systemClock } from '../clock.js'
import type { Config } from '../config.js'
import { createDatabase } from '../db/database.js'
import { migrateToLatest } from '../db/migrator.js'
import { createApiKey, deleteApiKeysNamed } from '../modules/api-keys/service.js'
import { type ServerOptions, startServer } from '../server.js'
import { seedDemoOrganisation } from './demo-seed.js'
import { type DemoSignIn, ensureDemoFormTemplate, resetDemoSignIns } from './demo-sign-in.js'
import {
  DaySimulator,
  DEFAULT_SIMULATION_SPEED,
  SIMULATION_TICK_MS,
  shiftsUnderWay,
} from './demo-simulate.js'
import { topUpToday } from './demo-today.js'

const READ_WRITE_KEY_NAME = 'demo read+write'
const ADMIN_KEY_NAME = 'demo admin'

export async function runDemo(
  config: Config,
  options: { serve: boolean; json: boolean; simulate?: boolean; speed?: number },
  output: { write(text: string): void } = process.stdout,
): Promise<void> {
  const database = createDatabase(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous })
  let demo: {
    organisationId: string
    created: boolean
    counts: Record<string, number>
    readWriteKey: string
    adminKey: string
    signIns: { admin: DemoSignIn; dispatcher: DemoSignIn; worker: DemoSignIn }
    /** Jobs `--simulate` added to today's shifts that had none left (demo-today.ts). */
    toppedUp: number
    /** Shifts under way when the simulation starts. */
    onShift: number
  }
  try {
    await migrateToLatest(database.db, database.dialect)
    const seeded = await seedDemoOrganisation(database.db)
    // Only hashes are stored, so the keys printed last time cannot be printed again: each run
    // replaces them (and whatever rotation made of them) with two new ones, rather than adding two.
    const { readWrite, admin } = await database.db.transaction().execute(async (trx) => {
      await deleteApiKeysNamed(trx, seeded.organisationId, [READ_WRITE_KEY_NAME, ADMIN_KEY_NAME])
      return {
        readWrite: await createApiKey(trx, {
          organisationId: seeded.organisationId,
          name: READ_WRITE_KEY_NAME,
          scopes: ['read', 'write'],
          rateLimitPerMinute: 1000,
        }),
        admin: await createApiKey(trx, {
          organisationId: seeded.organisationId,
          name: ADMIN_KEY_NAME,
          scopes: ['admin'],
          rateLimitPerMinute: 1000,
        }),
      }
    })
    await ensureDemoFormTemplate(database.db, seeded.organisationId)
    const simulating = options.serve && options.simulate === true
    const toppedUp = simulating ? await topUpToday(database.db, seeded.organisationId, Date.now()) : 0
    const onShift = simulating
      ? (await shiftsUnderWay(database.db, seeded.organisationId, Date.now())).length
      : 0
    demo = {
      organisationId: seeded.organisationId,
      created: seeded.created,
      counts: seeded.counts,
      readWriteKey: readWrite.key,
      adminKey: admin.key,
      signIns: await resetDemoSignIns(database.db, seeded.organisationId),
      toppedUp,
      onShift,
    }
  } finally {
    await database.destroy()
  }

  const simulate = options.serve && options.simulate === true
  const speed = options.speed ?? DEFAULT_SIMULATION_SPEED
  const origin = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`
  const base = `${origin}/v1/public`
  const adminBase = `${origin}/v1/admin`
  if (options.json) {
    const simulation = simulate ? { simulation: { speed } } : {}
    output.write(
      `${JSON.stringify({ ...demo, baseUrl: base, dashboardUrl: `${origin}/`, ...simulation }, null, 2)}\n`,
    )
  } else {
    output.write(
      [
        '',
        `Demo organisation ${demo.created ? 'created' : 'already present'}: ${demo.organisationId}`,
        `  ${Object.entries(demo.counts)
          .map(([table, count]) => `${count} ${table}`)
          .join(', ')}`,
        '',
        `  read+write key: ${demo.readWriteKey}`,
        `  admin key:      ${demo.adminKey}`,
        '',
        `Dashboard:  ${origin}/  — sign in with (email / password):`,
        `    admin:      ${demo.signIns.admin.email} / ${demo.signIns.admin.password}`,
        `    dispatcher: ${demo.signIns.dispatcher.email} / ${demo.signIns.dispatcher.password}`,
        `My day:     ${origin}/my  — a technician's phone app; sign in as a worker:`,
        `    worker:     ${demo.signIns.worker.email} / ${demo.signIns.worker.password}`,
        ...(demo.created
          ? []
          : ['  (new keys and passwords: the ones printed by earlier runs no longer work)']),
        '',
        'Try it:',
        `  curl -s '${base}/jobs?limit=5' -H 'Authorization: Bearer ${demo.readWriteKey}'`,
        `  curl -s '${base}/customers?search=street' -H 'Authorization: Bearer ${demo.readWriteKey}'`,
        `  curl -s -X POST '${base}/jobs' -H 'Authorization: Bearer ${demo.readWriteKey}' \\`,
        `       -H "Content-Type: application/json" -d '{"title":"Replace boiler valve","priority":"HIGH"}'`,
        '',
        `  curl -s '${adminBase}/organisation' -H 'Authorization: Bearer ${demo.adminKey}'`,
        '',
        `Playgrounds: ${base}/docs (public API) and ${adminBase}/docs (admin API)`,
        '             Authorize → paste a key → Try it out',
        config.webhookAllowPrivate
          ? 'Webhooks:    automations may target http://127.0.0.1 here (WEBHOOK_ALLOW_PRIVATE=true); see README → Webhooks'
          : 'Webhooks:    https targets on the public internet only (WEBHOOK_ALLOW_PRIVATE=false)',
        ...(simulate
          ? [
              demo.onShift === 0
                ? `Simulation: nobody is on shift now (the demo's shifts: Monday–Saturday, 07:00–21:00 London ` +
                  `time); workers move from the next shift's start on the board at ${origin}/ (Ctrl-C stops both)`
                : `Simulation: the ${demo.onShift} workers on shift now drive and work ${speed}× faster along ` +
                  `their routes (one job overruns${demo.toppedUp > 0 ? `; ${demo.toppedUp} jobs added to idle shifts` : ''}); ` +
                  `watch the board at ${origin}/ as the dispatcher (Ctrl-C stops both)`,
            ]
          : []),
        '',
      ].join('\n'),
    )
  }
  if (!options.serve) return
  await startServer(config, {
    closeOnSignals: true,
    ...(simulate ? { alongside: simulateDay(config, demo.organisationId, speed) } : {}),
  })
}

/** Starts the simulated day once the server listens; shutdown stops it before the database closes. */
function simulateDay(config: Config, organisationId: string, speed: number): ServerOptions['alongside'] {
  return ({ app, db }) => {
    const simulator = new DaySimulator({
      db,
      organisationId,
      clock: systemClock,
      speed,
      publicBaseUrl: config.publicBaseUrl,
      etaChangeMinutes: app.live.settings.etaChangeMinutes,
      onWrite: () => app.webhooks.dispatcher.wake(),
      log: app.log,
      tickMs: SIMULATION_TICK_MS,
    })
    simulator.start()
    return { close: () => simulator.stop() }
  }
}
