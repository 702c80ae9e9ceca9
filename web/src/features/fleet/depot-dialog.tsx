// Create or edit a depot: name, short code, address, the time zone its days run in, where it is (a
// pin or the numbers), primary (the organisation's time zone) and active.
import { useMemo } from 'react'
import { numberProblems, parseNumber, text } from '../../lib/form-values'
import { BROWSER_TIME_ZONE } from '../../lib/time'
import { FormDialog } from '../../ui/form-dialog'
import { CheckboxChoice, SelectField, TextAreaField, TextField } from '../../ui/form-fields'
import { useFormState } from '../../ui/use-form-state'
import { LocationFields } from '../customers/location-fields'
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
  const form = useFormState(
    () => ({
      name: depot?.name ?? '',
      code: depot?.code ?? '',
      address: depot?.address ?? '',
      description: depot?.description ?? '',
      timezone: depot?.timezone ?? BROWSER_TIME_ZONE,
      latitude: text(depot?.latitude),
      longitude: text(depot?.longitude),
      isPrimary: depot?.isPrimary ?? false,
      isActive: depot?.isActive ?? true,
    }),
    { fields: FIELDS, submission: save },
  )
  const { values } = form

  const submit = () => {
    const lat = parseNumber(values.latitude)
    const lng = parseNumber(values.longitude)
    if (!form.check(numberProblems({ latitude: lat, longitude: lng }))) return
    save.mutate(
      {
        ...(depot ? { id: depot.id } : {}),
        name: values.name.trim(),
        code: values.code.trim(),
        address: values.address.trim(),
        description: values.description.trim(),
        timezone: values.timezone,
        latitude: lat as number,
        longitude: lng as number,
        isPrimary: values.isPrimary,
        isActive: values.isActive,
      },
      { onSuccess: ({ location }) => onSaved(location) },
    )
  }

  return (
    <FormDialog
      title={depot ? `Edit ${depot.name}` : 'Add depot'}
      description="Where vans start and end their day; its time zone is the one its shifts and jobs are planned in."
      wide
      onClose={onClose}
      onSubmit={submit}
      submitLabel={depot ? 'Save depot' : 'Add depot'}
      submitting={form.submitting}
      formError={form.formError}
    >
      <div className="form-grid">
        <TextField form={form} name="name" label="Name" autoComplete="off" />
        <TextField
          form={form}
          name="code"
          label="Code"
          hint="Short, unique: shown on routes (e.g. NTH)"
          className="input mono"
          autoComplete="off"
        />
        <TextField form={form} name="address" label="Address" optional autoComplete="off" />
        <SelectField form={form} name="timezone" label="Time zone">
          {!zones.includes(values.timezone) && <option value={values.timezone}>{values.timezone}</option>}
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </SelectField>
        <LocationFields form={form} label="Depot location" />
        <div className="span-2">
          <TextAreaField form={form} name="description" label="Description" optional rows={2} />
        </div>
        <CheckboxChoice
          form={form}
          name="isPrimary"
          label="Primary depot"
          hint="Its time zone is the organisation’s; only one depot is primary."
        />
        <CheckboxChoice
          form={form}
          name="isActive"
          label="Active"
          hint="An inactive depot keeps its history but takes no new work."
        />
      </div>
    </FormDialog>
  )
}
