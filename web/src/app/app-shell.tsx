// The signed-in frame: sidebar (brand, organisation, role-aware links, the user and Sign out), the
// header's search and the page. Skip link first, so keyboard users reach the content in one Tab.
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import favicon from '../favicon.svg'
import { Badge } from '../ui/badge'
import { Button } from '../ui/button'
import { decideAccess } from './access'
import { HeaderSearch } from './header-search'
import { PageSuspense } from './lazy-page'
import { NAV, type NavItem } from './nav'
import { useSession, useSignOut } from './session'

export function AppShell() {
  const session = useSession()
  const signOut = useSignOut()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  // NavLink only knows its own path: the board's home link is '/' (end), yet /board and /board/week
  // are the same board, so the link says so there too.
  const alsoCurrent = (item: NavItem) =>
    (item.also ?? []).some((path) => pathname === path || pathname.startsWith(`${path}/`))
  const sections = NAV.map((section) => ({
    ...section,
    items: section.items
      .map((item) => ({ item, access: item.requires ? decideAccess(session, item.requires) : 'allowed' }))
      .filter(({ access }) => access !== 'no-access'),
  })).filter((section) => section.items.length > 0)

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="shell-sidebar">
        <div className="shell-brand">
          <img className="shell-brand-mark" src={favicon} alt="" />
          <span>
            fieldservice
            <span className="shell-org">{session.organisation.name}</span>
          </span>
        </div>
        <nav aria-label="Main" className="stack" style={{ gap: 'var(--space-4)' }}>
          {sections.map((section) => (
            <div className="nav-section" key={section.heading ?? 'top'}>
              {section.heading && <div className="nav-heading">{section.heading}</div>}
              {section.items.map(({ item, access }) => {
                const content = (
                  <>
                    {item.label}
                    {access === 'upgrade' && <Badge tone="purple">Pro</Badge>}
                  </>
                )
                return alsoCurrent(item) ? (
                  // NavLink sets aria-current only on its own match, so the plain link carries it here.
                  <Link key={item.to} to={item.to} className="nav-link" aria-current="page">
                    {content}
                  </Link>
                ) : (
                  <NavLink key={item.to} to={item.to} end={item.end} className="nav-link">
                    {content}
                  </NavLink>
                )
              })}
            </div>
          ))}
        </nav>
        <div className="shell-user">
          <div>
            <div className="shell-user-name">{session.user.name}</div>
            <div className="shell-user-meta">
              {session.user.email} · {session.user.role === 'ADMIN' ? 'Admin' : 'Dispatcher'}
            </div>
          </div>
          <Button
            size="sm"
            pending={signOut.isPending}
            onClick={() => signOut.mutate(undefined, { onSettled: () => navigate('/sign-in') })}
          >
            Sign out
          </Button>
        </div>
      </aside>
      <main id="main" className="shell-main" tabIndex={-1}>
        <header className="shell-header">
          <HeaderSearch />
        </header>
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
    </div>
  )
}
