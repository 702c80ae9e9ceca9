// Create or edit a vehicle: name, depot, what it costs (fixed per route, per km, per hour), how fast
// it drives, where its routes start and end, what it carries per capacity dimension, its tags
// (skills, equipment) and whether it is in service.
import { useDepots } from '../../app/time-zone'
import { numberProblems, parseNumber, text } from '../../lib/form-values'
import { FormDialog } from '../../ui/form-dialog'
import { CheckboxChoice, RadioChoices, type RadioOption, SelectField, TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
import { useSaveVehicle, type Vehicle } from './queries'
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

const STARTS = [
  { value: 'depot', label: 'At the depot' },
  { value: 'elsewhere', label: 'Somewhere else (a technician’s home, say)' },
] as const
const ENDS: readonly RadioOption<Vehicle['endPolicy']>[] = [
  { value: 'RETURN_TO_ORIGIN', label: 'Back where they started' },
  { value: 'END_AT_LAST_JOB', label: 'At the last job' },
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
  const form = useFormState(
    () => ({
      name: vehicle?.name ?? '',
      locationId: vehicle?.locationId ?? defaultDepotId ?? '',
      fixedCost: text(vehicle?.fixedCost ?? 0),
      costPerKm: text(vehicle?.costPerKm ?? 0),
      costPerHour: text(vehicle?.costPerHour ?? 0),
      speedFactor: text(vehicle?.speedFactor ?? 1),
      startsAtDepot: vehicle ? vehicle.startLatitude === null : true,
      startLatitude: text(vehicle?.startLatitude),
      startLongitude: text(vehicle?.startLongitude),
      endPolicy: vehicle?.endPolicy ?? ('RETURN_TO_ORIGIN' as Vehicle['endPolicy']),
      tagIds: vehicle?.tags.map((t) => t.tag.id) ?? [],
      capacities: Object.fromEntries(
        vehicle?.capacities.map((c) => [c.capacityDimension.id, String(c.maxValue)]) ?? [],
      ) as Amounts,
      isActive: vehicle?.isActive ?? true,
    }),
    { fields: FIELDS, submission: save },
  )
  const { values, setField } = form
  const firstDepot = depots.data?.locations[0]?.id ?? ''

  const submit = () => {
    const numbers = {
      fixedCost: parseNumber(values.fixedCost),
      costPerKm: parseNumber(values.costPerKm),
      costPerHour: parseNumber(values.costPerHour),
      speedFactor: parseNumber(values.speedFactor),
      startLatitude: values.startsAtDepot ? null : parseNumber(values.startLatitude),
      startLongitude: values.startsAtDepot ? null : parseNumber(values.startLongitude),
    }
    const amounts = readAmounts(values.capacities, 'maxValue')
    const problems = {
      ...numberProblems(numbers),
      ...(amounts.invalid ? { capacities: 'must be numbers' } : {}),
    }
    if (!form.check(problems)) return
    const { startLatitude: startLat, startLongitude: startLng, ...costs } = numbers
    save.mutate(
      {
        ...(vehicle ? { id: vehicle.id } : {}),
        name: values.name.trim(),
        locationId: values.locationId || firstDepot,
        // Empty costs are 0 and an empty speed factor 1, the API's defaults.
        fixedCost: costs.fixedCost ?? 0,
        costPerKm: costs.costPerKm ?? 0,
        costPerHour: costs.costPerHour ?? 0,
        speedFactor: costs.speedFactor ?? 1,
        startLatitude: startLat,
        startLongitude: startLng,
        endPolicy: values.endPolicy,
        isActive: values.isActive,
        tagIds: values.tagIds,
        capacities: amounts.list,
      },
      { onSuccess: ({ vehicle: saved }) => onSaved(saved) },
    )
  }

  return (
    <FormDialog
      title={vehicle ? `Edit ${vehicle.name}` : 'Add vehicle'}
      description="Costs and capacities are what the route optimiser plans with."
      wide
      onClose={onClose}
      onSubmit={submit}
      submitLabel={vehicle ? 'Save vehicle' : 'Add vehicle'}
      submitting={form.submitting}
      formError={form.formError}
    >
      <div className="form-grid">
        <TextField form={form} name="name" label="Name" autoComplete="off" />
        {/* Until the depots load, the first one is what an empty choice will be sent as. */}
        <SelectField form={form} name="locationId" label="Depot" value={values.locationId || firstDepot}>
          {(depots.data?.locations ?? []).map((depot) => (
            <option key={depot.id} value={depot.id}>
              {depot.name}
            </option>
          ))}
        </SelectField>
        <TextField form={form} name="fixedCost" label="Fixed cost per route" inputMode="decimal" />
        <TextField form={form} name="costPerKm" label="Cost per km" inputMode="decimal" />
        <TextField form={form} name="costPerHour" label="Cost per hour" inputMode="decimal" />
        <TextField
          form={form}
          name="speedFactor"
          label="Speed factor"
          hint="1 is normal traffic; 0.8 is 20% slower"
          inputMode="decimal"
        />
        <RadioChoices
          legend="Routes start"
          name="start"
          className="choice-group span-2"
          value={values.startsAtDepot ? 'depot' : 'elsewhere'}
          options={STARTS}
          onChange={(start) => setField('startsAtDepot', start === 'depot')}
        />
        {!values.startsAtDepot && (
          <>
            <TextField form={form} name="startLatitude" label="Start latitude" inputMode="decimal" />
            <TextField form={form} name="startLongitude" label="Start longitude" inputMode="decimal" />
          </>
        )}
        <RadioChoices
          legend="Routes end"
          name="end"
          className="choice-group span-2"
          value={values.endPolicy}
          options={ENDS}
          onChange={(end) => setField('endPolicy', end)}
        />
        <div className="span-2">
          <CapacityInputs
            legend="Capacity"
            value={values.capacities}
            onChange={(amounts) => setField('capacities', amounts)}
            error={form.error('capacities')}
          />
        </div>
        <div className="span-2">
          <TagChoices
            value={values.tagIds}
            onChange={(ids) => setField('tagIds', ids)}
            error={form.error('tagIds')}
          />
        </div>
        <CheckboxChoice
          form={form}
          name="isActive"
          label="In service"
          hint="Vehicles out of service are not planned."
          className="choice span-2"
        />
      </div>
    </FormDialog>
  )
}
