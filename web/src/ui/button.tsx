import type { ButtonHTMLAttributes, ReactNode } from 'react'
import { Link, type LinkProps } from 'react-router'

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost'

function classes(variant: ButtonVariant, size: 'md' | 'sm', extra?: string): string {
  return ['btn', variant === 'secondary' ? '' : `btn-${variant}`, size === 'sm' ? 'btn-sm' : '', extra ?? '']
    .filter(Boolean)
    .join(' ')
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant
  size?: 'md' | 'sm'
  /** Shows a spinner and disables the button while an action runs. */
  pending?: boolean
  children: ReactNode
}

/** A button; `type="button"` unless told otherwise, so it never submits a form by accident. */
export function Button({
  variant = 'secondary',
  size = 'md',
  pending = false,
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={classes(variant, size, className)}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      {...rest}
    >
      {pending && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  )
}

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({
  variant = 'secondary',
  size = 'md',
  className,
  ...rest
}: LinkProps & { variant?: ButtonVariant; size?: 'md' | 'sm' }) {
  return <Link className={classes(variant, size, className)} {...rest} />
}
