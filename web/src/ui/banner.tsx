import type { ReactNode } from 'react'

/** A callout inside a page or dialog: warnings (secrets shown once), errors, information. */
export function Banner({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'warning' | 'danger'
  title?: string
  children?: ReactNode
}) {
  return (
    <div className={`banner banner-${tone}`} role={tone === 'danger' ? 'alert' : undefined}>
      <div className="stack" style={{ gap: 2 }}>
        {title && <div className="banner-title">{title}</div>}
        {children && <div>{children}</div>}
      </div>
    </div>
  )
}
