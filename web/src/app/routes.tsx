// Every page of the dashboard and the access it needs. A feature adds its page here (and its link
// in nav.ts); pages that need a role or plan are wrapped in <RequireAccess>.
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router'
import { ApiKeysPage } from '../features/api-keys/api-keys-page'
import { AutomationPage } from '../features/automations/automation-page'
import { AutomationsPage } from '../features/automations/automations-page'
import { BoardPage } from '../features/board/board-page'
import { WeekPage } from '../features/board/week/week-page'
import { CustomersPage } from '../features/customers/customers-page'
import { WebhookLogsPage } from '../features/executions/webhook-logs-page'
import { FleetPage } from '../features/fleet/fleet-page'
import { FormTemplatesPage } from '../features/form-templates/form-templates-page'
import { ImportPage } from '../features/imports/import-page'
import { JobPage } from '../features/jobs/job-page'
import { JobsPage } from '../features/jobs/jobs-page'
import { myRoutes } from '../features/my/routes'
import { OrganisationPage } from '../features/organisation/organisation-page'
import { PlanPage } from '../features/plan/plan-page'
import { SeriesListPage } from '../features/series/series-list-page'
import { SeriesPage } from '../features/series/series-page'
import { ShiftsPage } from '../features/shifts/shifts-page'
import { SignInPage } from '../features/sign-in/sign-in-page'
import { TeamPage } from '../features/team/team-page'
import { ADMIN_ONLY } from './access'
import { AppShell } from './app-shell'
import { RequireAccess, RequireDashboardRole, RequireSession } from './guards'
import { NotFoundPage } from './status-pages'

const API_FEATURE = { roles: ADMIN_ONLY, apiPlan: true }

export const routes: RouteObject[] = [
  { path: '/sign-in', element: <SignInPage /> },
  myRoutes,
  {
    element: (
      <RequireSession>
        <RequireDashboardRole>
          <AppShell />
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
