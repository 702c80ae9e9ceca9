// The fields of a form template, edited as rows: label (the key follows it until edited), type,
// required, min/max for numbers, the answers of a single choice; move up/down, remove, add. The
// server's errors for `/body/fields/<i>/<prop>` show on their row.
import { Button } from '../../ui/button'
import { Field } from '../../ui/form'
import type { FormField, TemplateBody } from './queries'

export interface FieldRow {
  /** Local identity for React (keys may be edited). */
  rowId: number
  key: string
  keyEdited: boolean
  label: string
  type: FormField['type']
  required: boolean
  min: string
  max: string
  /** One answer per line. */
  options: string
}

export const TYPE_LABELS: Record<FormField['type'], string> = {
  TEXT: 'Short text',
  LONG_TEXT: 'Long text',
  NUMBER: 'Number',
  YES_NO: 'Yes / no',
  CHOICE: 'Single choice',
}

let nextRowId = 1

export function newRow(partial: Partial<FieldRow> = {}): FieldRow {
  return {
    rowId: nextRowId++,
    key: '',
    keyEdited: false,
    label: '',
    type: 'TEXT',
    required: false,
    min: '',
    max: '',
    options: '',
    ...partial,
  }
}

export function rowOf(field: FormField): FieldRow {
  return newRow({
    key: field.key,
    keyEdited: true,
    label: field.label,
    type: field.type,
    required: field.required,
    min: field.min === null ? '' : String(field.min),
    max: field.max === null ? '' : String(field.max),
    options: field.options.join('\n'),
  })
}

/** "Pressure (bar)" → "pressureBar": what the API's key pattern allows. */
export function keyFromLabel(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/[^a-zA-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
  const key = words
    .map((word, i) => (i === 0 ? word.toLowerCase() : word[0]?.toUpperCase() + word.slice(1).toLowerCase()))
    .join('')
    .slice(0, 64)
  return /^[a-zA-Z]/.test(key) ? key : key ? `f${key}`.slice(0, 64) : ''
}

const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value))

export function fieldsOf(rows: readonly FieldRow[]): TemplateBody['fields'] {
  return rows.map((row) => ({
    key: row.key,
    label: row.label,
    type: row.type,
    required: row.required,
    ...(row.type === 'NUMBER' ? { min: numberOrNull(row.min), max: numberOrNull(row.max) } : {}),
    ...(row.type === 'CHOICE'
      ? {
          options: row.options
            .split('\n')
            .map((option) => option.trim())
            .filter(Boolean),
        }
      : {}),
  }))
}

export function FieldsEditor({
  rows,
  onChange,
  errors,
}: {
  rows: FieldRow[]
  onChange: (rows: FieldRow[]) => void
  /** Server messages by row index and property. */
  errors: Record<number, Record<string, string>>
}) {
  const update = (index: number, change: Partial<FieldRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)))
  const move = (index: number, by: number) => {
    const next = [...rows]
    const [row] = next.splice(index, 1)
    if (row) next.splice(index + by, 0, row)
    onChange(next)
  }
  return (
    <div className="stack">
      <ol className="template-fields" aria-label="Fields">
        {rows.map((row, index) => {
          const rowErrors = errors[index] ?? {}
          const n = index + 1
          return (
            <li key={row.rowId} className="template-field">
              <fieldset>
                <legend>
                  Field {n}
                  {row.label ? `: ${row.label}` : ''}
                </legend>
                <div className="template-field-grid">
                  <Field label="Label" error={rowErrors.label}>
                    {(control) => (
                      <input
                        {...control}
                        className="input"
                        value={row.label}
                        onChange={(e) =>
                          update(index, {
                            label: e.target.value,
                            ...(row.keyEdited ? {} : { key: keyFromLabel(e.target.value) }),
                          })
                        }
                      />
                    )}
                  </Field>
                  <Field label="Key" error={rowErrors.key} hint="The answer’s name in webhooks and the API">
                    {(control) => (
                      <input
                        {...control}
                        className="input mono"
                        value={row.key}
                        onChange={(e) => update(index, { key: e.target.value, keyEdited: true })}
                      />
                    )}
                  </Field>
                  <Field label="Type" error={rowErrors.type}>
                    {(control) => (
                      <select
                        {...control}
                        className="select"
                        value={row.type}
                        onChange={(e) => update(index, { type: e.target.value as FieldRow['type'] })}
                      >
                        {Object.entries(TYPE_LABELS).map(([value, label]) => (
                          <option key={value} value={value}>
                            {label}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                  <label className="choice template-required">
                    <input
                      type="checkbox"
                      checked={row.required}
                      onChange={(e) => update(index, { required: e.target.checked })}
                    />
                    Required
                  </label>
                  {row.type === 'NUMBER' && (
                    <>
                      <Field label="Minimum" optional error={rowErrors.min}>
                        {(control) => (
                          <input
                            {...control}
                            className="input"
                            type="number"
                            step="any"
                            value={row.min}
                            onChange={(e) => update(index, { min: e.target.value })}
                          />
                        )}
                      </Field>
                      <Field label="Maximum" optional error={rowErrors.max}>
                        {(control) => (
                          <input
                            {...control}
                            className="input"
                            type="number"
                            step="any"
                            value={row.max}
                            onChange={(e) => update(index, { max: e.target.value })}
                          />
                        )}
                      </Field>
                    </>
                  )}
                  {row.type === 'CHOICE' && (
                    <Field label="Answers" hint="One per line" error={rowErrors.options}>
                      {(control) => (
                        <textarea
                          {...control}
                          className="textarea"
                          rows={3}
                          value={row.options}
                          onChange={(e) => update(index, { options: e.target.value })}
                        />
                      )}
                    </Field>
                  )}
                </div>
                <div className="row">
                  <Button size="sm" disabled={index === 0} onClick={() => move(index, -1)}>
                    Move up<span className="visually-hidden"> field {n}</span>
                  </Button>
                  <Button size="sm" disabled={index === rows.length - 1} onClick={() => move(index, 1)}>
                    Move down<span className="visually-hidden"> field {n}</span>
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={rows.length === 1}
                    onClick={() => onChange(rows.filter((_, i) => i !== index))}
                  >
                    Remove<span className="visually-hidden"> field {n}</span>
                  </Button>
                </div>
              </fieldset>
            </li>
          )
        })}
      </ol>
      <div>
        <Button onClick={() => onChange([...rows, newRow()])}>Add field</Button>
      </div>
    </div>
  )
}
