// `fieldservice users create` and `users set-password`: dashboard users with a password, for the
// first ADMIN of an organisation (before anyone can sign in) and for an operator resetting one.
// Prefer --password-stdin: a --password value stays in the shell's history and the process list.
import { type Command, Option } from 'commander'
import type { Config } from '../config.js'
import { findOrganisation } from '../modules/organisations/service.js'
import type { User } from '../modules/organisations/users-schemas.js'
import { createUser, findUserByEmail, setUserPassword } from '../modules/organisations/users-service.js'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordLength } from '../modules/sessions/passwords.js'
import { withDatabase } from './with-database.js'

type Print = (json: boolean, value: unknown, text: string) => void

interface PasswordOptions {
  password?: string
  passwordStdin?: boolean
}

/** The shape of an email the admin API accepts (a common subset of RFC 5321, like its validator). */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  return Buffer.concat(chunks).toString('utf8')
}

/** The password from --password or stdin (one trailing line break dropped), checked like the API does. */
async function passwordFrom(options: PasswordOptions, input: NodeJS.ReadableStream): Promise<string> {
  if (options.password !== undefined && options.passwordStdin)
    throw new Error('give the password either with --password or with --password-stdin, not both')
  if (options.password === undefined && !options.passwordStdin)
    throw new Error('a password is required: --password-stdin (preferred) or --password')
  const password = options.passwordStdin
    ? (await readAll(input)).replace(/\r?\n$/, '')
    : (options.password ?? '')
  const length = passwordLength(password)
  if (length < MIN_PASSWORD_LENGTH)
    throw new Error(`the password must be at least ${MIN_PASSWORD_LENGTH} characters (it has ${length})`)
  if (length > MAX_PASSWORD_LENGTH)
    throw new Error(`the password must be at most ${MAX_PASSWORD_LENGTH} characters`)
  return password
}

const describeUser = (user: User) => `${user.role} ${user.name} <${user.email}> (${user.id})`

export function addUserCommands(
  program: Command,
  config: Config,
  print: Print,
  input: NodeJS.ReadableStream,
): void {
  const users = program
    .command('users')
    .description(
      'Manage users who sign in (ADMIN and DISPATCHER: the dashboard; WORKER: My day) and their passwords',
    )

  users
    .command('create')
    .description('Add a user who can sign in (the dashboard, or My day for a WORKER)')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--email <email>', 'their email: unique in the organisation, any case')
    .requiredOption('--name <name>', 'their name')
    .addOption(
      new Option('--role <role>', 'what they may do')
        .choices(['ADMIN', 'DISPATCHER', 'WORKER'])
        .makeOptionMandatory(),
    )
    .option('--password <password>', `at least ${MIN_PASSWORD_LENGTH} characters (visible in shell history)`)
    .option('--password-stdin', 'read the password from standard input')
    .option('--json', 'machine-readable output')
    .action(
      async (
        options: PasswordOptions & {
          org: string
          email: string
          name: string
          role: 'ADMIN' | 'DISPATCHER' | 'WORKER'
          json?: boolean
        },
      ) => {
        const name = options.name.trim()
        if (name === '') throw new Error('--name must not be empty')
        if (!EMAIL.test(options.email.trim()))
          throw new Error(`--email "${options.email}" is not an email address`)
        const password = await passwordFrom(options, input)
        const user = await withDatabase(config, async ({ db }) => {
          if (!(await findOrganisation(db, options.org)))
            throw new Error(`No organisation with id ${options.org}`)
          const created = await createUser(db, options.org, {
            name,
            email: options.email,
            role: options.role,
          })
          return setUserPassword(db, options.org, created.id, password)
        })
        // As PUT /v1/admin/team/users/:id/password answers it.
        print(
          !!options.json,
          { user },
          `Created ${describeUser(user)}; they can sign in to the dashboard now`,
        )
      },
    )

  users
    .command('set-password')
    .description("Set or replace a user's password; signs them out of every dashboard session")
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--email <email>', 'the user, by email')
    .option('--password <password>', `at least ${MIN_PASSWORD_LENGTH} characters (visible in shell history)`)
    .option('--password-stdin', 'read the password from standard input')
    .option('--json', 'machine-readable output')
    .action(async (options: PasswordOptions & { org: string; email: string; json?: boolean }) => {
      const password = await passwordFrom(options, input)
      const user = await withDatabase(config, async ({ db }) => {
        if (!(await findOrganisation(db, options.org)))
          throw new Error(`No organisation with id ${options.org}`)
        const found = await findUserByEmail(db, options.org, options.email)
        if (!found)
          throw new Error(`No user with the email ${options.email.trim()} in organisation ${options.org}`)
        return setUserPassword(db, options.org, found.id, password)
      })
      const note = user.role === 'WORKER' ? ' (a WORKER cannot sign in to the dashboard)' : ''
      print(
        !!options.json,
        { user },
        `Password set for ${describeUser(user)}; their sessions are signed out${note}`,
      )
    })
}
