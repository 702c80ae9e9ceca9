import { useId, useRef } from 'react'
import { Banner } from './banner'
import { CopyButton } from './copy-button'

/**
 * A secret shown once (an API key, a signing secret): the value, a Copy button and the warning that
 * it will not be shown again. Callers drop the value from memory when the dialog closes.
 */
export function SecretReveal({ label, value, warning }: { label: string; value: string; warning?: string }) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  return (
    <div className="stack">
      <Banner tone="warning" title="Copy it now: it will not be shown again">
        {warning ?? 'Only a hash is stored. If you lose it, create a new one and revoke this one.'}
      </Banner>
      <div className="field">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        <div className="secret">
          <input
            ref={input}
            id={id}
            className="secret-value"
            readOnly
            value={value}
            spellCheck={false}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton value={value} fallbackTarget={input} />
        </div>
      </div>
    </div>
  )
}
