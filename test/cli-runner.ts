// The `fieldservice` program run in-process for tests (a process per command would cost a second
// each), on the database of `env`; commander's own exits become exceptions carrying its stderr.
import { Readable } from 'node:stream'
import { buildCli } from '../src/cli/program.js'
import { loadConfig } from '../src/config.js'

/**
 * `cli(...args)` runs a command and answers what it printed; `withStdin(text)` gives the next
 * commands that standard input (empty otherwise).
 */
export function cliOn(env: NodeJS.ProcessEnv, stdin = '') {
  const cli = async (...args: string[]) => {
    let stdout = ''
    let stderr = ''
    const program = buildCli(
      loadConfig(env),
      {
        write: (text) => {
          stdout += text
        },
      },
      Readable.from([stdin]),
    )
    const writeErr = (text: string) => {
      stderr += text
    }
    for (const command of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
      command.exitOverride().configureOutput({ writeErr, writeOut: () => {} })
    }
    try {
      await program.parseAsync(['node', 'fieldservice', ...args])
    } catch (error) {
      throw Object.assign(new Error(stderr || (error as Error).message), {
        stderr: stderr || (error as Error).message,
      })
    }
    return stdout
  }
  const cliJson = async (...args: string[]) => JSON.parse(await cli(...args, '--json'))
  const cliFails = async (...args: string[]) => {
    try {
      await cli(...args)
    } catch (error) {
      return (error as { stderr: string }).stderr
    }
    throw new Error(`expected "${args.join(' ')}" to fail`)
  }
  return { cli, cliJson, cliFails, withStdin: (text: string) => cliOn(env, text) }
}
