// Pickers shared by vehicles and jobs: tags as a group of checkboxes, and one amount per capacity
// dimension (an empty amount means none). Both read the organisation's first 100 of each.
import './fleet.css'
import { Link } from 'react-router'
import { Spinner } from '../../ui/states'
import { useCapacityDimensions, useTags } from './queries'

export function TagChoices({
  value,
  onChange,
  error,
}: {
  value: string[]
  onChange: (tagIds: string[]) => void
  error?: string | undefined
}) {
  const tags = useTags()
  const list = tags.data?.tags ?? []
  const toggle = (id: string, on: boolean) => onChange(on ? [...value, id] : value.filter((t) => t !== id))
  return (
    <fieldset className="choice-group tag-choices" aria-invalid={error ? true : undefined}>
      <legend className="field-label">Tags</legend>
      {tags.isPending ? (
        <Spinner label="Loading tags" />
      ) : list.length === 0 ? (
        <span className="muted">
          No tags yet: add them under <Link to="/fleet#tags">Fleet › Tags</Link>.
        </span>
      ) : (
        <div className="tag-choice-list">
          {list.map((tag) => (
            <label className="tag-choice" key={tag.id}>
              <input
                type="checkbox"
                checked={value.includes(tag.id)}
                onChange={(e) => toggle(tag.id, e.target.checked)}
              />
              <span>{tag.name}</span>
            </label>
          ))}
        </div>
      )}
      {error && <span className="field-error">{/^[a-z]/.test(error) ? `Tags ${error}` : error}</span>}
    </fieldset>
  )
}

/** Amounts typed per dimension id ('' = none). */
export type Amounts = Record<string, string>

export function CapacityInputs({
  legend,
  value,
  onChange,
  error,
}: {
  legend: string
  value: Amounts
  onChange: (amounts: Amounts) => void
  error?: string | undefined
}) {
  const dimensions = useCapacityDimensions()
  const list = dimensions.data?.capacityDimensions ?? []
  return (
    <fieldset className="choice-group" aria-invalid={error ? true : undefined}>
      <legend className="field-label">{legend}</legend>
      {dimensions.isPending ? (
        <Spinner label="Loading capacity dimensions" />
      ) : list.length === 0 ? (
        <span className="muted">
          No capacity dimensions yet: add them under <Link to="/fleet#capacity">Fleet › Capacity</Link>.
        </span>
      ) : (
        <div className="capacity-inputs">
          {list.map((dimension) => (
            <label className="capacity-input" key={dimension.id}>
              <span>{dimension.label}</span>
              <input
                className="input"
                inputMode="decimal"
                placeholder="—"
                value={value[dimension.id] ?? ''}
                onChange={(e) => onChange({ ...value, [dimension.id]: e.target.value })}
              />
            </label>
          ))}
        </div>
      )}
      {error && <span className="field-error">{/^[a-z]/.test(error) ? `${legend} ${error}` : error}</span>}
    </fieldset>
  )
}

/** The amounts as the API's list, or the name of the first dimension whose amount is not a number. */
export function readAmounts<Key extends string>(
  amounts: Amounts,
  key: Key,
): { list: ({ capacityDimensionId: string } & Record<Key, number>)[]; invalid: boolean } {
  const list: ({ capacityDimensionId: string } & Record<Key, number>)[] = []
  let invalid = false
  for (const [capacityDimensionId, text] of Object.entries(amounts)) {
    const trimmed = text.trim().replace(',', '.')
    if (trimmed === '') continue
    const amount = Number(trimmed)
    if (!Number.isFinite(amount)) invalid = true
    else
      list.push({ capacityDimensionId, [key]: amount } as { capacityDimensionId: string } & Record<
        Key,
        number
      >)
  }
  return { list, invalid }
}
