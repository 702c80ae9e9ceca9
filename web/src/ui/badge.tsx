import type { ReactNode } from 'react'

export type Tone = 'neutral' | 'green' | 'red' | 'amber' | 'blue' | 'purple'

/** A short status label. Colour is never the only signal: the text says it too. */
export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={tone === 'neutral' ? 'badge' : `badge badge-${tone}`}>{children}</span>
}
