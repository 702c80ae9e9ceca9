// Import customers or jobs from a spreadsheet: choose the file (its header row is read here, nothing
// more), say which column is which field (guessed from the names), check it (a dry run: what would be
// created, updated or refused, row by row, and the first rows as read), then import it with a progress
// bar while the server reads the file. Rows are matched by their external reference, so importing the
// same file again changes nothing.
import { useQueryClient } from '@tanstack/react-query'
import { type DragEvent, useId, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { errorMessage } from '../../api/errors'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { RadioChoices } from '../../ui/form-fields'
import { PageHeader } from '../../ui/page-header'
import { readHeader } from './csv-header'
import { guessMapping, IMPORT_FIELDS, type ImportKind } from './import-fields'
import { ImportOutcome, ImportProgress } from './import-outcome'
import { type Import, runImport, useImportProgress } from './queries'
import './imports.css'

type Phase = 'ready' | 'checking' | 'importing'

const KINDS = [
  {
    value: 'customers' as const,
    label: 'Customers',
    hint: 'Each row a customer: its name, address and coordinates',
  },
  { value: 'jobs' as const, label: 'Jobs', hint: 'Each row a job, for a customer imported before or none' },
]

const bytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`

export function ImportPage() {
  const [params] = useSearchParams()
  const [kind, setKind] = useState<ImportKind>(params.get('kind') === 'jobs' ? 'jobs' : 'customers')
  const [file, setFile] = useState<File | null>(null)
  const [header, setHeader] = useState<string[]>([])
  const [mapping, setMapping] = useState<Record<string, string>>({})
  const [phase, setPhase] = useState<Phase>('ready')
  const [runningId, setRunningId] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<Import | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const progress = useImportProgress(phase === 'ready' ? null : runningId)
  const fileId = useId()
  const queryClient = useQueryClient()

  const chooseFile = async (chosen: File | undefined) => {
    if (!chosen) return
    setOutcome(null)
    setProblem(null)
    const columns = await readHeader(chosen)
    setFile(chosen)
    setHeader(columns)
    setMapping(guessMapping(kind, columns))
    if (columns.length === 0) setProblem('This file is empty: a CSV file starts with a row of column names.')
  }
  const chooseKind = (next: ImportKind) => {
    setKind(next)
    setOutcome(null)
    setMapping(guessMapping(next, header))
  }
  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    void chooseFile(event.dataTransfer.files[0])
  }

  const fields = IMPORT_FIELDS[kind]
  const missing = fields.filter((field) => field.required === 'always' && !mapping[field.name])
  const unused = header.filter((column) => column && !Object.values(mapping).includes(column))
  const ready = file !== null && header.length > 0 && missing.length === 0 && phase === 'ready'

  const run = async (dryRun: boolean) => {
    if (!file) return
    setRunningId(null)
    setPhase(dryRun ? 'checking' : 'importing')
    setOutcome(null)
    setProblem(null)
    try {
      setOutcome(await runImport(kind, mapping, dryRun, file, setRunningId))
      // The lists (and any record open elsewhere) read the imported rows afresh.
      if (!dryRun) await queryClient.invalidateQueries({ queryKey: [kind] })
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setPhase('ready')
    }
  }

  return (
    <div className="page import-page">
      <PageHeader
        title="Import from a spreadsheet"
        description="Customers or jobs from a CSV file. Rows are matched by their external reference: importing the same file again changes nothing, and a changed row updates its record."
        breadcrumbs={[{ label: kind === 'jobs' ? 'Jobs' : 'Customers', to: `/${kind}` }]}
      />

      <section className="card" aria-labelledby="import-file">
        <div className="card-body stack">
          <h2 id="import-file">1. The file</h2>
          <RadioChoices
            legend="Each row is"
            name="import-kind"
            value={kind}
            options={KINDS}
            onChange={chooseKind}
          />
          {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a mouse convenience; the file input inside is the way for everyone */}
          <div className="import-drop" onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
            <label className="field-label" htmlFor={fileId}>
              CSV file
            </label>
            <input
              id={fileId}
              type="file"
              accept=".csv,text/csv"
              disabled={phase !== 'ready'}
              onChange={(event) => void chooseFile(event.target.files?.[0])}
            />
            <span className="muted">or drop it here. UTF-8, a row of column names first, up to 20 MB.</span>
          </div>
          {file && header.length > 0 && (
            <p className="muted" style={{ margin: 0 }}>
              {file.name} · {bytes(file.size)} · {header.length} columns
            </p>
          )}
        </div>
      </section>

      {file && header.length > 0 && (
        <section className="card" aria-labelledby="import-columns">
          <div className="card-body stack">
            <h2 id="import-columns">2. Which column is which</h2>
            <div className="table-wrap">
              <table className="table" aria-label="Columns">
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Column in your file</th>
                  </tr>
                </thead>
                <tbody>
                  {fields.map((field) => (
                    <tr key={field.name}>
                      <td>
                        <span className="stack" style={{ gap: 0 }}>
                          <span>
                            {field.label}{' '}
                            {field.required === 'always' && <span className="import-required">required</span>}
                            {field.required === 'new' && (
                              <span className="import-required">needed for new {kind}</span>
                            )}
                          </span>
                          {field.hint && <span className="muted">{field.hint}</span>}
                        </span>
                      </td>
                      <td>
                        <select
                          className="select"
                          aria-label={`Column for ${field.label}`}
                          value={mapping[field.name] ?? ''}
                          disabled={phase !== 'ready'}
                          onChange={(event) => {
                            const { [field.name]: _, ...rest } = mapping
                            setMapping(
                              event.target.value ? { ...rest, [field.name]: event.target.value } : rest,
                            )
                          }}
                        >
                          <option value="">Not imported</option>
                          {header.map((column, index) =>
                            column ? (
                              // biome-ignore lint/suspicious/noArrayIndexKey: two columns may share a name
                              <option key={`${column}-${index}`} value={column}>
                                {column}
                              </option>
                            ) : null,
                          )}
                        </select>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {missing.length > 0 && (
              <p className="field-error" role="alert">
                Choose the column of {missing.map((field) => field.label.toLowerCase()).join(', ')}.
              </p>
            )}
            {unused.length > 0 && <p className="muted">Not imported: {unused.join(', ')}.</p>}
            <div className="row">
              <Button onClick={() => void run(true)} disabled={!ready} pending={phase === 'checking'}>
                Check the file
              </Button>
              <Button
                variant="primary"
                onClick={() => void run(false)}
                disabled={!ready}
                pending={phase === 'importing'}
              >
                Import {kind}
              </Button>
            </div>
          </div>
        </section>
      )}

      {phase !== 'ready' && (
        <ImportProgress
          progress={progress.data}
          verb={phase === 'checking' ? 'Checking' : 'Importing'}
          fileSize={file?.size ?? null}
        />
      )}
      {problem && <Banner tone="danger">{problem}</Banner>}
      {outcome && (
        <ImportOutcome
          outcome={outcome}
          kind={kind}
          fields={fields}
          listLink={
            !outcome.dryRun && (
              <Link className="btn" to={`/${kind}`}>
                Open {kind === 'jobs' ? 'Jobs' : 'Customers'}
              </Link>
            )
          }
        />
      )}
    </div>
  )
}
