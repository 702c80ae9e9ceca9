import { type Static, Type } from '@sinclair/typebox'
import {
  DateTime,
  Envelope,
  errorResponses,
  Id,
  PageQuery,
  Pagination,
  StringEnum,
  WorkerColour,
} from '../../http/schemas.js'

export const UserRole = StringEnum(
  ['ADMIN', 'DISPATCHER', 'WORKER'],
  'WORKER: does the jobs (shifts and assignments); DISPATCHER: plans them; ADMIN: manages the organisation',
)

const Email = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'Unique within the organisation, compared case-insensitively; stored lower-cased',
  examples: ['sam.taylor@example.com'],
})
const UserName = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S', examples: ['Sam Taylor'] })

export const User = Type.Object(
  {
    id: Id,
    name: Type.String(),
    email: Type.String(),
    role: UserRole,
    isActive: Type.Boolean({
      description: 'Inactive users stay readable (past shifts and jobs keep them) but cannot be assigned',
    }),
    hasPassword: Type.Boolean({
      description:
        'Whether a password is set (PUT /team/users/{id}/password or the CLI): ADMIN and DISPATCHER users ' +
        'with one can sign in to the dashboard',
    }),
    colour: WorkerColour,
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'User' },
)
export type User = Static<typeof User>

export const UserListQuery = Type.Object(
  {
    ...PageQuery(50),
    role: Type.Optional(UserRole),
    isActive: Type.Optional(Type.Boolean({ description: 'true or false' })),
    search: Type.Optional(
      Type.String({ maxLength: 200, description: 'Case-insensitive substring of the name or the email' }),
    ),
  },
  { additionalProperties: false },
)
export type UserListQuery = Static<typeof UserListQuery>

export const CreateUserBody = Type.Object(
  {
    name: UserName,
    email: Email,
    role: Type.Optional({ ...UserRole, description: `${UserRole.description}. Defaults to WORKER.` }),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'Sam Taylor', email: 'sam.taylor@example.com', role: 'WORKER' }],
  },
)
export type CreateUserBody = Static<typeof CreateUserBody>

export const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(UserName),
    email: Type.Optional(Email),
    role: Type.Optional(UserRole),
    colour: Type.Optional(WorkerColour),
  },
  {
    additionalProperties: false,
    description: 'Only the fields sent change. Use /activate and /deactivate to change isActive.',
    examples: [{ role: 'DISPATCHER' }],
  },
)
export type UpdateUserBody = Static<typeof UpdateUserBody>

export const SetPasswordBody = Type.Object(
  {
    password: Type.String({
      minLength: 12,
      maxLength: 1024,
      description: 'At least 12 characters; stored only as a scrypt hash',
    }),
  },
  { additionalProperties: false, examples: [{ password: 'correct horse battery staple' }] },
)
export type SetPasswordBody = Static<typeof SetPasswordBody>

export const UserListResponse = Envelope(
  Type.Object({ users: Type.Array(User), pagination: Pagination }),
  'A page of team members',
)
export const UserResponse = Envelope(Type.Object({ user: User }), 'The team member')

export const EMAIL_CONFLICT_ERROR = errorResponses([
  'CONFLICT',
  'Another user of the organisation already has this email',
])
