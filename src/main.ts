// Process entry for `npm start`: serve with the environment's configuration.
import { loadConfig } from './config.js'
import { startServer } from './server.js'

await startServer(loadConfig(), { closeOnSignals: true })
