// Authentication and access: the one door of this module. src/http installs the hooks that call it
// (src/http/authentication.ts), route modules read the AuthContext it leaves on the request, and the
// app builds the key resolver and the dashboard sign-in through it.
//
// An API key (api-key-resolver.ts) or a dashboard session (session-cookies.ts, over the sessions
// module) becomes one AuthContext (context.ts); access.ts decides what it may call.

export type { Scope } from '../api-keys/service.js'
export {
  type AuthenticatedRequest,
  adminScope,
  assertAccess,
  DEFAULT_ACCESS,
  publicScope,
  type SessionAccess,
} from './access.js'
export { ApiKeyResolver, assertNoKeyInQuery, carriesSecret } from './api-key-resolver.js'
export { type AuthContext, type KeyAuth, type SessionAuth, sessionAuth } from './context.js'
export {
  buildDashboardSignIn,
  type Dashboard,
  type DashboardSignInOptions,
  type SessionLogin,
} from './dashboard-sign-in.js'
export { SessionCookies } from './session-cookies.js'
