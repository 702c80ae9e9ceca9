// Who may see what, in one place (the server decides; this only keeps the UI honest about it):
// ADMIN everything; DISPATCHER no API keys, automations, webhook logs or organisation settings;
// FREE and STARTER organisations see API keys and automations as what the Pro plan unlocks.
import type { Session } from './session'

export type Role = Session['user']['role']
export type Plan = Session['organisation']['plan']

/** Plans with API access, and so API keys and automations (spec §1). */
export const API_PLANS: readonly Plan[] = ['PRO', 'ENTERPRISE']

export interface Requirement {
  /** Only these roles (default: any role that can sign in). */
  roles?: readonly Role[]
  /** Needs a plan with API access; other plans see the upsell. */
  apiPlan?: boolean
}

export type AccessDecision = 'allowed' | 'no-access' | 'upgrade'

export function decideAccess(session: Session, requirement: Requirement): AccessDecision {
  if (requirement.roles && !requirement.roles.includes(session.user.role)) return 'no-access'
  if (requirement.apiPlan && !API_PLANS.includes(session.organisation.plan)) return 'upgrade'
  return 'allowed'
}

export const ADMIN_ONLY: readonly Role[] = ['ADMIN']

/** Workers use the technician app (/my) only; the dashboard is for admins and dispatchers. */
export function isWorker(session: Session): boolean {
  return session.user.role === 'WORKER'
}
