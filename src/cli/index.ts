#!/usr/bin/env node
// Entry point of the `fieldservice` bin.
import { buildCli } from './program.js'
import { countFromProcessStart } from './solve.js'

countFromProcessStart()
buildCli()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`fieldservice: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
