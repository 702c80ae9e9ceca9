// Every page of the dashboard and the access it needs. A feature adds its page here (and its link
// in nav.ts); pages that need a role or plan are wrapped in <RequireAccess>.
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router'
import { myRoutes } from '../features/my/routes'
import { ADMIN_ONLY } from './access'
import { RequireAccess, RequireDashboardRole, RequireSession } from './guards'
import { lazyPage, PageSuspense } from './lazy-page'
import { NotFoundPage } from './status-pages'

// The shell too: the sign-in page and My day never draw it.
const AppShell = lazyPage(() => import('./app-shell'), 'AppShell')
const ApiKeysPage = lazyPage(() => import('../features/api-keys/api-keys-page'), 'ApiKeysPage')
const AutomationPage = lazyPage(() => import('../features/automations/automation-page'), 'AutomationPage')
const AutomationsPage = lazyPage(() => import('../features/automations/automations-page'), 'AutomationsPage')
const BoardPage = lazyPage(() => import('../features/board/board-page'), 'BoardPage')
const WeekPage = lazyPage(() => import('../features/board/week/week-page'), 'WeekPage')
const CustomersPage = lazyPage(() => import('../features/customers/customers-page'), 'CustomersPage')
const WebhookLogsPage = lazyPage(() => import('../features/executions/webhook-logs-page'), 'WebhookLogsPage')
const FleetPage = lazyPage(() => import('../features/fleet/fleet-page'), 'FleetPage')
const FormTemplatesPage = lazyPage(
  () => import('../features/form-templates/form-templates-page'),
  'FormTemplatesPage',
)
const ImportPage = lazyPage(() => import('../features/imports/import-page'), 'ImportPage')
const JobPage = lazyPage(() => import('../features/jobs/job-page'), 'JobPage')
const JobsPage = lazyPage(() => import('../features/jobs/jobs-page'), 'JobsPage')
const OrganisationPage = lazyPage(
  () => import('../features/organisation/organisation-page'),
  'OrganisationPage',
)
const PlanPage = lazyPage(() => import('../features/plan/plan-page'), 'PlanPage')
const SeriesListPage = lazyPage(() => import('../features/series/series-list-page'), 'SeriesListPage')
const SeriesPage = lazyPage(() => import('../features/series/series-page'), 'SeriesPage')
const ShiftsPage = lazyPage(() => import('../features/shifts/shifts-page'), 'ShiftsPage')
const SignInPage = lazyPage(() => import('../features/sign-in/sign-in-page'), 'SignInPage')
const TeamPage = lazyPage(() => import('../features/team/team-page'), 'TeamPage')

const API_FEATURE = { roles: ADMIN_ONLY, apiPlan: true }

export const routes: RouteObject[] = [
  {
    path: '/sign-in',
    element: (
      <PageSuspense>
        <SignInPage />
      </PageSuspense>
    ),
  },
  myRoutes,
  {
    element: (
      <RequireSession>
        <RequireDashboardRole>
          <PageSuspense>
            <AppShell />
          </PageSuspense>
        </RequireDashboardRole>
      </RequireSession>
    ),
    children: [
      { index: true, element: <BoardPage /> },
      { path: 'board', element: <BoardPage /> },
      { path: 'board/week', element: <WeekPage /> },
      { path: 'plan', element: <PlanPage /> },
      { path: 'jobs', element: <JobsPage /> },
      { path: 'jobs/:jobId', element: <JobPage /> },
      { path: 'series', element: <SeriesListPage /> },
      { path: 'series/:seriesId', element: <SeriesPage /> },
      { path: 'customers', element: <CustomersPage /> },
      { path: 'import', element: <ImportPage /> },
      { path: 'fleet', element: <FleetPage /> },
      { path: 'shifts', element: <ShiftsPage /> },
      { path: 'team', element: <TeamPage /> },
      { path: 'settings', element: <Navigate to="/settings/organisation" replace /> },
      {
        path: 'settings/organisation',
        element: (
          <RequireAccess requirement={{ roles: ADMIN_ONLY }} feature="Organisation settings">
            <OrganisationPage />
          </RequireAccess>
        ),
      },
      {
        path: 'settings/form-templates',
        element: (
          <RequireAccess requirement={{ roles: ADMIN_ONLY }} feature="Form templates">
            <FormTemplatesPage />
          </RequireAccess>
        ),
      },
      {
        path: 'settings/api-keys',
        element: (
          <RequireAccess requirement={API_FEATURE} feature="API keys">
            <ApiKeysPage />
          </RequireAccess>
        ),
      },
      {
        path: 'settings/automations',
        element: (
          <RequireAccess requirement={API_FEATURE} feature="Automations">
            <AutomationsPage />
          </RequireAccess>
        ),
      },
      {
        path: 'settings/automations/:automationId',
        element: (
          <RequireAccess requirement={API_FEATURE} feature="Automations">
            <AutomationPage />
          </RequireAccess>
        ),
      },
      {
        path: 'settings/webhook-logs',
        element: (
          <RequireAccess requirement={API_FEATURE} feature="Webhook logs">
            <WebhookLogsPage />
          </RequireAccess>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]

export function createRouter() {
  return createBrowserRouter(routes)
}
