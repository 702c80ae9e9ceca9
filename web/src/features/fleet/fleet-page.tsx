// Fleet: depots (where vans start; each with its time zone), vehicles (costs, capacities, tags),
// and the tags and capacity dimensions they use. Each section pages on the server and keeps its
// state in the URL (`?depots=N`, `?depot=ID` for the vehicle filter, the open record as
// `?depot-edit=ID` or `?vehicle=ID`), so an edit can be linked; the page composes them.
import './fleet.css'
import { useState } from 'react'
import { useListParams } from '../../lib/search-params'
import { Button } from '../../ui/button'
import { PageHeader } from '../../ui/page-header'
import { DepotsSection } from './depots-section'
import { CapacityCard, TagsCard } from './reference-data'
import { VehiclesSection } from './vehicles-section'

export function FleetPage() {
  const params = useListParams()
  const [adding, setAdding] = useState<'depot' | 'vehicle' | null>(null)
  const adder = (kind: 'depot' | 'vehicle') => (on: boolean) => setAdding(on ? kind : null)

  return (
    <div className="page">
      <PageHeader
        title="Fleet"
        description="Depots, the vehicles that start from them, and what they carry."
        actions={
          <>
            <Button onClick={() => setAdding('depot')}>Add depot</Button>
            <Button variant="primary" onClick={() => setAdding('vehicle')}>
              Add vehicle
            </Button>
          </>
        }
      />
      <DepotsSection params={params} adding={adding === 'depot'} onAdding={adder('depot')} />
      <VehiclesSection params={params} adding={adding === 'vehicle'} onAdding={adder('vehicle')} />
      <div className="fleet-reference">
        <TagsCard />
        <CapacityCard />
      </div>
    </div>
  )
}
