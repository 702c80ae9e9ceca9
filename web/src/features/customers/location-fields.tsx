// Where a customer or a depot is: the pin picker over the whole row, and the latitude and longitude
// it fills (the exact way in, and the keyboard one), bound to the dialog's form state.
import { parseNumber } from '../../lib/form-values'
import { TextField } from '../../ui/form-fields'
import type { FormState } from '../../ui/use-form-state'
import { type Landmark, PinPicker } from './pin-picker'

interface Coordinates {
  latitude: string
  longitude: string
}

/** A coordinate typed in the form, or null while it is empty or not a number (no pin then). */
export function typedCoordinate(text: string): number | null {
  const value = parseNumber(text)
  return value !== null && !Number.isNaN(value) ? value : null
}

export function LocationFields<V extends Coordinates>({
  form,
  label,
  landmarks,
}: {
  form: FormState<V>
  /** The map's name ("Customer location"). */
  label: string
  landmarks?: Landmark[]
}) {
  // The fields are named by the generic V; these two are there by its bound.
  const coordinates = form as unknown as FormState<Coordinates>
  return (
    <>
      <div className="span-2">
        <PinPicker
          label={label}
          latitude={typedCoordinate(coordinates.values.latitude)}
          longitude={typedCoordinate(coordinates.values.longitude)}
          {...(landmarks ? { landmarks } : {})}
          onChange={(newLat, newLng) => {
            coordinates.setField('latitude', String(newLat))
            coordinates.setField('longitude', String(newLng))
          }}
        />
      </div>
      <TextField
        form={coordinates}
        name="latitude"
        label="Latitude"
        hint="Decimal degrees, −90 to 90"
        inputMode="decimal"
      />
      <TextField
        form={coordinates}
        name="longitude"
        label="Longitude"
        hint="Decimal degrees, −180 to 180"
        inputMode="decimal"
      />
    </>
  )
}
