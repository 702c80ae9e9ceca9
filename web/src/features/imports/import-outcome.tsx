// An import under way (a progress bar over the bytes of the file the server has read, and the rows so
// far) and its outcome: what it created, updated, left unchanged or refused — each refused row with
// its row number, field and the reason — and, for a check, the first rows as they were read.
import { type ReactNode, useEffect, useRef } from 'react'
import type { ImportField, ImportKind } from './import-fields'
import type { Import } from './queries'

const count = (n: number) => n.toLocaleString('en-GB')

/** A section that comes into view when it appears (the button that made it may be far above or below). */
function useShownOnArrival() {
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' })
  }, [])
  return ref
}

export function ImportProgress({
  progress,
  verb,
  fileSize,
}: {
  progress: Import | undefined
  verb: string
  fileSize: number | null
}) {
  const total = progress?.bytesTotal ?? fileSize ?? 0
  const read = progress?.bytesRead ?? 0
  const percent = total > 0 ? Math.min(100, Math.round((read / total) * 100)) : 0
  const ref = useShownOnArrival()
  return (
    <section className="card" aria-labelledby="import-progress" ref={ref}>
      <div className="card-body stack">
        <h2 id="import-progress">{verb}…</h2>
        <progress className="import-bar" aria-label={`${verb} the file`} value={percent} max={100} />
        <p className="muted" aria-live="polite" style={{ margin: 0 }}>
          {percent} % of the file read · {count(progress?.processed ?? 0)} rows
          {progress && progress.failed > 0 ? ` · ${count(progress.failed)} refused` : ''}
        </p>
      </div>
    </section>
  )
}

export function ImportOutcome({
  outcome,
  kind,
  fields,
  listLink,
}: {
  outcome: Import
  kind: ImportKind
  fields: readonly ImportField[]
  listLink: ReactNode
}) {
  const check = outcome.dryRun
  const labels = new Map(fields.map((field) => [field.name, field.label]))
  const shown = fields.filter((field) => outcome.sample.some((row) => row[field.name] !== undefined))
  const title = outcome.status === 'FAILED' ? 'The file could not be read' : check ? 'The check' : 'Imported'
  const ref = useShownOnArrival()
  return (
    <section className="card" aria-labelledby="import-outcome" ref={ref}>
      <div className="card-body stack">
        <h2 id="import-outcome">{title}</h2>
        {outcome.failure && <p className="field-error">{outcome.failure}</p>}
        <dl className="import-counts" aria-label={check ? 'What importing would do' : 'What the import did'}>
          <div>
            <dt>{check ? 'Would create' : 'Created'}</dt>
            <dd>{count(outcome.created)}</dd>
          </div>
          <div>
            <dt>{check ? 'Would update' : 'Updated'}</dt>
            <dd>{count(outcome.updated)}</dd>
          </div>
          <div>
            <dt>Unchanged</dt>
            <dd>{count(outcome.unchanged)}</dd>
          </div>
          <div>
            <dt>Refused</dt>
            <dd>{count(outcome.failed)}</dd>
          </div>
        </dl>
        {outcome.errors.length > 0 && (
          <div className="table-wrap">
            <table className="table" aria-label="Refused rows">
              <caption className="import-caption">
                {outcome.failed > outcome.errors.length
                  ? `The first ${outcome.errors.length} of ${count(outcome.failed)} refused rows`
                  : 'Refused rows'}
                {check ? ' — fix them in the file, or import the others' : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Field</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {outcome.errors.map((error) => (
                  <tr key={`${error.row}-${error.field}-${error.error}`}>
                    <td>{error.row}</td>
                    <td>{error.field ? (labels.get(error.field) ?? error.field) : 'The row'}</td>
                    <td>{error.error}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {check && outcome.sample.length > 0 && (
          <div className="table-wrap">
            <table className="table" aria-label="First rows as read">
              <caption className="import-caption">
                The first {outcome.sample.length} rows, as they will be read
              </caption>
              <thead>
                <tr>
                  {shown.map((field) => (
                    <th scope="col" key={field.name}>
                      {field.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {outcome.sample.map((row, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the sample's rows have no id but their place
                  <tr key={index}>
                    {shown.map((field) => (
                      <td key={field.name}>{row[field.name] === undefined ? '' : String(row[field.name])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {!check && outcome.status === 'SUCCEEDED' && (
          <p className="muted" style={{ margin: 0 }}>
            Every row was read. Import the same file again at any time: only rows that changed change {kind}.
          </p>
        )}
        <div className="row">{listLink}</div>
      </div>
    </section>
  )
}
