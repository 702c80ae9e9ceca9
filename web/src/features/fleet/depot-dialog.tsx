// Create or edit a depot: name, short code, address, the time zone its days run in, where it is (a
// pin or the numbers), primary (the organisation's time zone) and active.
import { useMemo, useState } from 'react'
import { numberProblems, parseNumber, text } from '../../lib/form-values'
import { BROWSER_TIME_ZONE } from '../../lib/time'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field, FormError, serverErrors } from '../../ui/form'
import { PinPicker } from '../customers/pin-picker'
import { type Depot, useSaveDepot } from './queries'

const FIELDS = [
  'name',
  'code',
  'address',
  'description',
  'timezone',
  'latitude',
  'longitude',
  'isPrimary',
  'isActive',
]

function timeZones(): string[] {
  const zones = Intl.supportedValuesOf?.('timeZone') ?? []
  return zones.includes('UTC') ? zones : ['UTC', ...zones]
}

export function DepotDialog({
  depot,
  onClose,
  onSaved,
}: {
  depot?: Depot
  onClose: () => void
  onSaved: (depot: Depot) => void
}) {
  const save = useSaveDepot()
  const zones = useMemo(timeZones, [])
  const [name, setName] = useState(depot?.name ?? '')
  const [code, setCode] = useState(depot?.code ?? '')
  const [address, setAddress] = useState(depot?.address ?? '')
  const [description, setDescription] = useState(depot?.description ?? '')
  const [timezone, setTimezone] = useState(depot?.timezone ?? BROWSER_TIME_ZONE)
  const [latitude, setLatitude] = useState(text(depot?.latitude))
  const [longitude, setLongitude] = useState(text(depot?.longitude))
  const [isPrimary, setPrimary] = useState(depot?.isPrimary ?? false)
  const [isActive, setActive] = useState(depot?.isActive ?? true)
  const [local, setLocal] = useState<Record<string, string>>({})
  const errors = serverErrors(save.error, FIELDS)
  const error = (field: string) => local[field] ?? errors.fields[field]
  const lat = parseNumber(latitude)
  const lng = parseNumber(longitude)

  const submit = () => {
    const problems = numberProblems({ latitude: lat, longitude: lng })
    setLocal(problems)
    if (Object.keys(problems).length > 0) return
    save.mutate(
      {
        ...(depot ? { id: depot.id } : {}),
        name: name.trim(),
        code: code.trim(),
        address: address.trim(),
        description: description.trim(),
        timezone,
        latitude: lat as number,
        longitude: lng as number,
        isPrimary,
        isActive,
      },
      { onSuccess: ({ location }) => onSaved(location) },
    )
  }

  return (
    <Dialog
      title={depot ? `Edit ${depot.name}` : 'Add depot'}
      description="Where vans start and end their day; its time zone is the one its shifts and jobs are planned in."
      wide
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={save.isPending}>
            {depot ? 'Save depot' : 'Add depot'}
          </Button>
        </>
      }
    >
      <FormError message={errors.form} />
      <div className="form-grid">
        <Field label="Name" error={error('name')}>
          {(control) => (
            <input
              {...control}
              className="input"
              autoComplete="off"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field label="Code" hint="Short, unique: shown on routes (e.g. NTH)" error={error('code')}>
          {(control) => (
            <input
              {...control}
              className="input mono"
              autoComplete="off"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          )}
        </Field>
        <Field label="Address" optional error={error('address')}>
          {(control) => (
            <input
              {...control}
              className="input"
              autoComplete="off"
              value={address}
              onChange={(e) => setAddress(e.target.value)}
            />
          )}
        </Field>
        <Field label="Time zone" error={error('timezone')}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={timezone}
              onChange={(e) => setTimezone(e.target.value)}
            >
              {!zones.includes(timezone) && <option value={timezone}>{timezone}</option>}
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="span-2">
          <PinPicker
            label="Depot location"
            latitude={lat !== null && !Number.isNaN(lat) ? lat : null}
            longitude={lng !== null && !Number.isNaN(lng) ? lng : null}
            onChange={(newLat, newLng) => {
              setLatitude(String(newLat))
              setLongitude(String(newLng))
            }}
          />
        </div>
        <Field label="Latitude" hint="Decimal degrees, −90 to 90" error={error('latitude')}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="decimal"
              value={latitude}
              onChange={(e) => setLatitude(e.target.value)}
            />
          )}
        </Field>
        <Field label="Longitude" hint="Decimal degrees, −180 to 180" error={error('longitude')}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="decimal"
              value={longitude}
              onChange={(e) => setLongitude(e.target.value)}
            />
          )}
        </Field>
        <div className="span-2">
          <Field label="Description" optional error={error('description')}>
            {(control) => (
              <textarea
                {...control}
                className="textarea"
                rows={2}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
              />
            )}
          </Field>
        </div>
        <label className="choice">
          <input type="checkbox" checked={isPrimary} onChange={(e) => setPrimary(e.target.checked)} />
          <span>
            Primary depot
            <span className="choice-hint">
              Its time zone is the organisation’s; only one depot is primary.
            </span>
          </span>
        </label>
        <label className="choice">
          <input type="checkbox" checked={isActive} onChange={(e) => setActive(e.target.checked)} />
          <span>
            Active
            <span className="choice-hint">An inactive depot keeps its history but takes no new work.</span>
          </span>
        </label>
      </div>
    </Dialog>
  )
}
