// Settings › Organisation › Map background: the tile server every map of the organisation draws on
// (board, plan, My day, the pin picker), set once here by an admin. Empty: no tiles, and the maps
// fetch nothing from another origin.
import { type FormEvent, useEffect, useState } from 'react'
import { ApiError } from '../../api/errors'
import { Button } from '../../ui/button'
import { Field, FormError } from '../../ui/form'
import { useToast } from '../../ui/toast'
import type { Organisation } from './queries'
import { useUpdateOrganisation } from './queries'

/** The message of the detail at `/body/map/<field>`, if the error has one. */
function mapFieldError(error: unknown, field: 'tileUrl' | 'attribution'): string | undefined {
  if (!(error instanceof ApiError)) return undefined
  return error.details.find((d) => d.path === `/body/map/${field}`)?.message
}

export function MapSection({ organisation }: { organisation: Organisation }) {
  const update = useUpdateOrganisation()
  const toast = useToast()
  const [tileUrl, setTileUrl] = useState(organisation.map.tileUrl ?? '')
  const [attribution, setAttribution] = useState(organisation.map.attribution ?? '')
  useEffect(() => {
    setTileUrl(organisation.map.tileUrl ?? '')
    setAttribution(organisation.map.attribution ?? '')
  }, [organisation.map.tileUrl, organisation.map.attribution])
  const urlError = mapFieldError(update.error, 'tileUrl')
  const attributionError = mapFieldError(update.error, 'attribution')
  const formError = update.error && !urlError && !attributionError ? update.error.message : null
  const unchanged =
    tileUrl.trim() === (organisation.map.tileUrl ?? '') &&
    attribution.trim() === (organisation.map.attribution ?? '')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    update.mutate(
      { map: { tileUrl: tileUrl.trim() || null, attribution: attribution.trim() || null } },
      { onSuccess: () => toast.success(tileUrl.trim() ? 'Map background saved' : 'Map background removed') },
    )
  }

  return (
    <section className="card" aria-labelledby="org-map">
      <form className="card-body" onSubmit={submit} noValidate>
        <h2 id="org-map">Map background</h2>
        <p className="muted" style={{ margin: 0 }}>
          The tile server every map of your organisation draws on: the board, the plan, the pin picker and
          your technicians’ My day. Without one the maps show depots, stops, their names and a scale on a
          plain background, and load nothing from elsewhere.
        </p>
        <FormError message={formError} />
        <div style={{ maxWidth: 560 }} className="stack">
          <Field
            label="Tile server URL"
            optional
            error={urlError}
            hint="An https address with {z}, {x} and {y}, from a tile service whose terms allow your use. Empty: no background."
          >
            {(control) => (
              <input
                {...control}
                className="input"
                type="url"
                placeholder="https://tiles.example.com/{z}/{x}/{y}.png"
                value={tileUrl}
                maxLength={500}
                onChange={(e) => setTileUrl(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Attribution"
            optional
            error={attributionError}
            hint="Shown in the corner of every map, as the tile service asks (e.g. © OpenStreetMap contributors)."
          >
            {(control) => (
              <input
                {...control}
                className="input"
                value={attribution}
                maxLength={300}
                onChange={(e) => setAttribution(e.target.value)}
              />
            )}
          </Field>
        </div>
        <div className="row">
          <Button type="submit" variant="primary" pending={update.isPending} disabled={unchanged}>
            Save map background
          </Button>
        </div>
      </form>
    </section>
  )
}
