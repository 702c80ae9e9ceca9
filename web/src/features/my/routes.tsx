// The technician's app as routes: My day, a job, one of its forms. Signed in (any role: admins and
// dispatchers see their own jobs here too), in its own frame (MyLayout), not the dashboard's shell.
import { Link, type RouteObject } from 'react-router'
import { RequireSession } from '../../app/guards'
import { lazyPage, PageSuspense } from '../../app/lazy-page'

// The phone's frame too: the dashboard never draws it.
const MyLayout = lazyPage(() => import('./my-layout'), 'MyLayout')

const MyDayPage = lazyPage(() => import('./my-day-page'), 'MyDayPage')
const MyJobPage = lazyPage(() => import('./job-page'), 'MyJobPage')
const MyFormPage = lazyPage(() => import('./form-page'), 'MyFormPage')

export const myRoutes: RouteObject = {
  path: '/my',
  element: (
    <RequireSession>
      <PageSuspense>
        <MyLayout />
      </PageSuspense>
    </RequireSession>
  ),
  children: [
    { index: true, element: <MyDayPage /> },
    { path: 'jobs/:jobId', element: <MyJobPage /> },
    { path: 'jobs/:jobId/forms/:templateId', element: <MyFormPage /> },
    { path: '*', element: <MyNotFound /> },
  ],
}

function MyNotFound() {
  return (
    <div className="state state-page">
      <h1 className="state-title">Page not found</h1>
      <p>There is nothing at this address in the app.</p>
      <Link to="/my">Back to my day</Link>
    </div>
  )
}
