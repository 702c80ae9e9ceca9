// Dashboard sign-in (issue "Web dashboard"): team members get a password, and a signed-in browser
// holds a server-side session. Frozen in time: never import application code here.
//
// - users.password_hash: a self-describing scrypt string (`$scrypt$ln=…,r=…,p=…$salt$hash`), null
//   for users who cannot sign in; users.password_changed_at: when it was last set.
// - user_sessions.id is the SHA-256 of the cookie value, so the table never holds a usable cookie.
//   The user's role and the organisation's plan are not copied here: they are read on every request.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`

  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute()
  await db.schema.alterTable('users').addColumn('password_changed_at', timestamp).execute()
  // Sign-in looks an email up across organisations (emails are unique per organisation only).
  await db.schema.createIndex('users_email_idx').on('users').column('email').execute()

  await db.schema
    .createTable('user_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    /** The synchronizer token every state-changing request of the session must echo. */
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    /** Moved at most once a minute; the idle timeout counts from it. */
    .addColumn('last_seen_at', timestamp, (c) => c.notNull())
    /** The absolute end, fixed at sign-in. */
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addForeignKeyConstraint('user_sessions_user_fk', ['organisation_id', 'user_id'], 'users', [
      'organisation_id',
      'id',
    ])
    .execute()
  // Signing a user out everywhere; pruning ended sessions.
  await db.schema
    .createIndex('user_sessions_user_idx')
    .on('user_sessions')
    .columns(['organisation_id', 'user_id'])
    .execute()
  await db.schema.createIndex('user_sessions_expires_idx').on('user_sessions').column('expires_at').execute()
}
