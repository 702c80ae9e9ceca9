// Create or edit a vehicle: name, depot, what it costs (fixed per route, per km, per hour), how fast
// it drives, where its routes start and end, what it carries per capacity dimension, its tags
// (skills, equipment) and whether it is in service.
import { useState } from 'react'
import { useDepots } from '../../app/time-zone'
import { numberProblems, parseNumber, text } from '../../lib/form-values'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field, FormError, serverErrors } from '../../ui/form'
import { useSaveVehicle, type Vehicle, type VehicleBody } from './queries'
import { type Amounts, CapacityInputs, readAmounts, TagChoices } from './tag-choices'

const FIELDS = [
  'name',
  'locationId',
  'fixedCost',
  'costPerKm',
  'costPerHour',
  'speedFactor',
  'startLatitude',
  'startLongitude',
  'endPolicy',
  'isActive',
  'tagIds',
  'capacities',
]

export function VehicleDialog({
  vehicle,
  defaultDepotId,
  onClose,
  onSaved,
}: {
  vehicle?: Vehicle
  defaultDepotId?: string | undefined
  onClose: () => void
  onSaved: (vehicle: Vehicle) => void
}) {
  const save = useSaveVehicle()
  const depots = useDepots()
  const [name, setName] = useState(vehicle?.name ?? '')
  const [locationId, setLocationId] = useState(vehicle?.locationId ?? defaultDepotId ?? '')
  const [fixedCost, setFixedCost] = useState(text(vehicle?.fixedCost ?? 0))
  const [costPerKm, setCostPerKm] = useState(text(vehicle?.costPerKm ?? 0))
  const [costPerHour, setCostPerHour] = useState(text(vehicle?.costPerHour ?? 0))
  const [speedFactor, setSpeedFactor] = useState(text(vehicle?.speedFactor ?? 1))
  const [startsAtDepot, setStartsAtDepot] = useState(vehicle ? vehicle.startLatitude === null : true)
  const [startLatitude, setStartLatitude] = useState(text(vehicle?.startLatitude))
  const [startLongitude, setStartLongitude] = useState(text(vehicle?.startLongitude))
  const [endPolicy, setEndPolicy] = useState<VehicleBody['endPolicy']>(
    vehicle?.endPolicy ?? 'RETURN_TO_ORIGIN',
  )
  const [tagIds, setTagIds] = useState<string[]>(vehicle?.tags.map((t) => t.tag.id) ?? [])
  const [capacities, setCapacities] = useState<Amounts>(
    Object.fromEntries(vehicle?.capacities.map((c) => [c.capacityDimension.id, String(c.maxValue)]) ?? []),
  )
  const [isActive, setActive] = useState(vehicle?.isActive ?? true)
  const [local, setLocal] = useState<Record<string, string>>({})
  const errors = serverErrors(save.error, FIELDS)
  const error = (field: string) => local[field] ?? errors.fields[field]
  const firstDepot = depots.data?.locations[0]?.id ?? ''

  const submit = () => {
    const numbers = {
      fixedCost: parseNumber(fixedCost),
      costPerKm: parseNumber(costPerKm),
      costPerHour: parseNumber(costPerHour),
      speedFactor: parseNumber(speedFactor),
      startLatitude: startsAtDepot ? null : parseNumber(startLatitude),
      startLongitude: startsAtDepot ? null : parseNumber(startLongitude),
    }
    const amounts = readAmounts(capacities, 'maxValue')
    const problems = {
      ...numberProblems(numbers),
      ...(amounts.invalid ? { capacities: 'must be numbers' } : {}),
    }
    setLocal(problems)
    if (Object.keys(problems).length > 0) return
    const { startLatitude: startLat, startLongitude: startLng, ...costs } = numbers
    save.mutate(
      {
        ...(vehicle ? { id: vehicle.id } : {}),
        name: name.trim(),
        locationId: locationId || firstDepot,
        // Empty costs are 0 and an empty speed factor 1, the API's defaults.
        fixedCost: costs.fixedCost ?? 0,
        costPerKm: costs.costPerKm ?? 0,
        costPerHour: costs.costPerHour ?? 0,
        speedFactor: costs.speedFactor ?? 1,
        startLatitude: startLat,
        startLongitude: startLng,
        endPolicy,
        isActive,
        tagIds,
        capacities: amounts.list,
      },
      { onSuccess: ({ vehicle: saved }) => onSaved(saved) },
    )
  }

  return (
    <Dialog
      title={vehicle ? `Edit ${vehicle.name}` : 'Add vehicle'}
      description="Costs and capacities are what the route optimiser plans with."
      wide
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={save.isPending}>
            {vehicle ? 'Save vehicle' : 'Add vehicle'}
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
        <Field label="Depot" error={error('locationId')}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={locationId || firstDepot}
              onChange={(e) => setLocationId(e.target.value)}
            >
              {(depots.data?.locations ?? []).map((depot) => (
                <option key={depot.id} value={depot.id}>
                  {depot.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Fixed cost per route" error={error('fixedCost')}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="decimal"
              value={fixedCost}
              onChange={(e) => setFixedCost(e.target.value)}
            />
          )}
        </Field>
        <Field label="Cost per km" error={error('costPerKm')}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="decimal"
              value={costPerKm}
              onChange={(e) => setCostPerKm(e.target.value)}
            />
          )}
        </Field>
        <Field label="Cost per hour" error={error('costPerHour')}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="decimal"
              value={costPerHour}
              onChange={(e) => setCostPerHour(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Speed factor"
          hint="1 is normal traffic; 0.8 is 20% slower"
          error={error('speedFactor')}
        >
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="decimal"
              value={speedFactor}
              onChange={(e) => setSpeedFactor(e.target.value)}
            />
          )}
        </Field>
        <fieldset className="choice-group span-2">
          <legend className="field-label">Routes start</legend>
          <label className="choice">
            <input
              type="radio"
              name="start"
              checked={startsAtDepot}
              onChange={() => setStartsAtDepot(true)}
            />
            <span>At the depot</span>
          </label>
          <label className="choice">
            <input
              type="radio"
              name="start"
              checked={!startsAtDepot}
              onChange={() => setStartsAtDepot(false)}
            />
            <span>Somewhere else (a technician’s home, say)</span>
          </label>
        </fieldset>
        {!startsAtDepot && (
          <>
            <Field label="Start latitude" error={error('startLatitude')}>
              {(control) => (
                <input
                  {...control}
                  className="input"
                  inputMode="decimal"
                  value={startLatitude}
                  onChange={(e) => setStartLatitude(e.target.value)}
                />
              )}
            </Field>
            <Field label="Start longitude" error={error('startLongitude')}>
              {(control) => (
                <input
                  {...control}
                  className="input"
                  inputMode="decimal"
                  value={startLongitude}
                  onChange={(e) => setStartLongitude(e.target.value)}
                />
              )}
            </Field>
          </>
        )}
        <fieldset className="choice-group span-2">
          <legend className="field-label">Routes end</legend>
          <label className="choice">
            <input
              type="radio"
              name="end"
              checked={endPolicy === 'RETURN_TO_ORIGIN'}
              onChange={() => setEndPolicy('RETURN_TO_ORIGIN')}
            />
            <span>Back where they started</span>
          </label>
          <label className="choice">
            <input
              type="radio"
              name="end"
              checked={endPolicy === 'END_AT_LAST_JOB'}
              onChange={() => setEndPolicy('END_AT_LAST_JOB')}
            />
            <span>At the last job</span>
          </label>
        </fieldset>
        <div className="span-2">
          <CapacityInputs
            legend="Capacity"
            value={capacities}
            onChange={setCapacities}
            error={error('capacities')}
          />
        </div>
        <div className="span-2">
          <TagChoices value={tagIds} onChange={setTagIds} error={error('tagIds')} />
        </div>
        <label className="choice span-2">
          <input type="checkbox" checked={isActive} onChange={(e) => setActive(e.target.checked)} />
          <span>
            In service
            <span className="choice-hint">Vehicles out of service are not planned.</span>
          </span>
        </label>
      </div>
    </Dialog>
  )
}
