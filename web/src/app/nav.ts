// The sidebar: sections of links, each with the access it needs (see access.ts). A page that is
// added to routes.tsx gets its link here; links a role cannot use are not shown at all, links the
// plan does not include are shown with a "Pro" badge and lead to what the plan unlocks.
import { ADMIN_ONLY, type Requirement } from './access'

export interface NavItem {
  label: string
  to: string
  /** Match only this exact path (the home link). */
  end?: boolean
  /** Other paths this link stands for: the link is current on each and on anything under it. */
  also?: string[]
  requires?: Requirement
}

export interface NavSection {
  heading?: string
  items: NavItem[]
}

export const NAV: NavSection[] = [
  {
    items: [
      { label: 'Dispatch board', to: '/', end: true, also: ['/board'] },
      { label: 'Plan the day', to: '/plan' },
    ],
  },
  {
    heading: 'Operations',
    items: [
      { label: 'Jobs', to: '/jobs' },
      { label: 'Series', to: '/series' },
      { label: 'Customers', to: '/customers' },
      { label: 'Fleet', to: '/fleet' },
      { label: 'Shifts', to: '/shifts' },
    ],
  },
  {
    heading: 'Organisation',
    items: [{ label: 'Team', to: '/team' }],
  },
  {
    heading: 'Settings',
    items: [
      { label: 'Organisation', to: '/settings/organisation', requires: { roles: ADMIN_ONLY } },
      { label: 'Form templates', to: '/settings/form-templates', requires: { roles: ADMIN_ONLY } },
      { label: 'API keys', to: '/settings/api-keys', requires: { roles: ADMIN_ONLY, apiPlan: true } },
      { label: 'Automations', to: '/settings/automations', requires: { roles: ADMIN_ONLY, apiPlan: true } },
      { label: 'Webhook logs', to: '/settings/webhook-logs', requires: { roles: ADMIN_ONLY, apiPlan: true } },
    ],
  },
]
