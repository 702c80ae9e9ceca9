import type { ReactNode } from 'react'
import { Link } from 'react-router'

/** Every page's title row: optional breadcrumbs, the h1, a line of description and actions. */
export function PageHeader({
  title,
  description,
  actions,
  breadcrumbs,
}: {
  title: ReactNode
  description?: ReactNode
  actions?: ReactNode
  breadcrumbs?: { label: string; to: string }[]
}) {
  return (
    <header className="page-header">
      <div className="page-header-text">
        {breadcrumbs && breadcrumbs.length > 0 && (
          <nav aria-label="Breadcrumb" className="breadcrumbs">
            {breadcrumbs.map((crumb) => (
              <span key={crumb.to}>
                <Link to={crumb.to}>{crumb.label}</Link> /
              </span>
            ))}
          </nav>
        )}
        <h1>{title}</h1>
        {description && <p className="page-description">{description}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  )
}
