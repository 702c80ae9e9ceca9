// Process entry for `npm start`: serve with the environment's configuration.
import { loadConfig } from './config.js'
import { closeOnSignals, startServer } from './server.js'

const server = await startServer(loadConfig())
closeOnSignals(server)
