import { type Static, Type } from '@sinclair/typebox'
import {
  DateTime,
  Envelope,
  ErrorBodyWith,
  EXAMPLE_ID,
  Id,
  StringEnum,
  WorkerColour,
} from '../../http/schemas.js'
import { PlanTier } from '../organisations/schemas.js'

export const SESSION_COOKIE = 'fs_session'
export const CSRF_HEADER = 'x-csrf-token'

export const SignInBody = Type.Object(
  {
    email: Type.String({
      minLength: 1,
      maxLength: 254,
      description: 'Compared case-insensitively',
      examples: ['dispatch@example.com'],
    }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    organisationId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Only when the same email and password belong to users of several organisations: which one ' +
          'to sign in to (from the 409 ORGANISATION_REQUIRED answer)',
        examples: [EXAMPLE_ID],
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ email: 'dispatch@example.com', password: 'correct horse battery staple' }],
  },
)
export type SignInBody = Static<typeof SignInBody>

export const SessionInfo = Type.Object(
  {
    user: Type.Object({
      id: Id,
      name: Type.String(),
      email: Type.String(),
      role: StringEnum(['ADMIN', 'DISPATCHER', 'WORKER']),
      colour: WorkerColour,
    }),
    organisation: Type.Object({ id: Id, name: Type.String(), plan: PlanTier }),
    csrfToken: Type.String({
      description:
        'Send it as the X-CSRF-Token header with every POST, PUT, PATCH and DELETE of this session ' +
        '(sign-out included); it stays the same for the life of the session',
    }),
    expiresAt: { ...DateTime, description: 'The absolute end of the session, however active it is' },
    idleExpiresAt: {
      ...DateTime,
      description:
        'When the session ends if no request comes before then (each request moves it, to the minute, ' +
        'or to a quarter of the idle timeout when that is shorter); ' +
        'the session ends at whichever of the two comes first',
    },
  },
  { title: 'SessionInfo' },
)
export type SessionInfo = Static<typeof SessionInfo>

export const SessionResponse = Envelope(Type.Object({ session: SessionInfo }), 'The signed-in session')
export const SignedOutResponse = Envelope(
  Type.Object({ session: Type.Null() }),
  'Signed out: `session` is null and the cookie is cleared',
)

/** The 409 of a sign-in that matches users of several organisations. */
export const ORGANISATION_REQUIRED_ERROR = {
  409: ErrorBodyWith(
    ['ORGANISATION_REQUIRED'],
    'The email and password match users of several organisations (ORGANISATION_REQUIRED): sign in ' +
      'again with organisationId set to one of `organisations`',
    {
      organisations: Type.Array(Type.Object({ id: Id, name: Type.String() }), {
        description: 'The organisations whose user has this email and password',
      }),
    },
  ),
}
