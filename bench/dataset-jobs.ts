// The whole dataset: the target organisation (PRO, `size` jobs), 100 others with a few hundred jobs
// each, and every job of all of them streamed in creation order (ids time-ordered with created_at,
// the target's jobs interleaved with the others' as a shared database would hold them).
import { seededRandom } from '../src/cli/demo-time.js'
import { JOB_KINDS, JOB_NOTES } from './dataset-names.js'
import {
  createRandom,
  DATA_END,
  DATA_START,
  DAY,
  decimal,
  HOUR,
  idAt,
  iso,
  type OrganisationPlan,
  OTHER_ORGANISATION_JOBS,
  OTHER_ORGANISATIONS,
  otherShape,
  type Random,
  type RowSink,
  TARGET_SHAPE,
  writeOrganisation,
} from './dataset-rows.js'

const SEED = 0xbe9c_2026
const DRAIN_EVERY = 5_000

export interface GeneratedDataset {
  targetOrganisationId: string
  /** Jobs of every organisation. */
  jobs: number
}

const STATUSES: [string, number][] = [
  ['COMPLETED', 0.42],
  ['CREATED', 0.2],
  ['ASSIGNED', 0.2],
  ['IN_PROGRESS', 0.05],
  ['CANCELLED', 0.13],
]

function weighted(random: Random, weights: [string, number][]): string {
  let x = random()
  for (const [value, weight] of weights) {
    x -= weight
    if (x < 0) return value
  }
  return weights[weights.length - 1]![0]
}

export async function generateDataset(
  sink: RowSink,
  size: number,
  progress: (done: number, total: number) => void = () => {},
): Promise<GeneratedDataset> {
  const random = createRandom(seededRandom(SEED))
  const setupStart = DATA_START - 60 * DAY
  const target = writeOrganisation(sink, random, TARGET_SHAPE, setupStart)
  const others: OrganisationPlan[] = []
  for (let i = 1; i <= OTHER_ORGANISATIONS; i++) {
    others.push(writeOrganisation(sink, random, otherShape(i), setupStart + i * 6 * HOUR))
    if (i % 20 === 0) await sink.drain()
  }

  const total = size + OTHER_ORGANISATIONS * OTHER_ORGANISATION_JOBS
  const step = (DATA_END - DATA_START) / total
  for (let i = 0; i < total; i++) {
    // Exactly `size` of the `total` jobs are the target's, spread evenly through the year.
    const isTarget = Math.floor(((i + 1) * size) / total) > Math.floor((i * size) / total)
    const organisation = isTarget ? target : (others[random.int(others.length)] as OrganisationPlan)
    const createdAt = Math.floor(DATA_START + (i + 0.05 + random() * 0.9) * step)
    writeJob(sink, random, organisation, createdAt)
    if ((i + 1) % DRAIN_EVERY === 0) {
      await sink.drain()
      progress(i + 1, total)
    }
  }
  await sink.drain()
  progress(total, total)
  return { targetOrganisationId: target.id, jobs: total }
}

function writeJob(sink: RowSink, random: Random, organisation: OrganisationPlan, createdAt: number): void {
  const id = idAt(createdAt, random)
  const status = weighted(random, STATUSES)
  const customer = random() < 0.85 ? random.pick(organisation.customers) : null
  const depot = random() < 0.9 ? random.pick(organisation.depots) : null
  const place = customer ?? (random() < 0.5 ? depot : null)
  const serviceDuration = customer?.serviceDuration ?? 900 + 300 * random.int(22)

  // A window of 1–4 h starting on the hour, 1–14 days after the job was created.
  let earliest: number | null = null
  let latest: number | null = null
  if (random() < 0.85) {
    const day = Math.floor(createdAt / DAY) * DAY + (1 + random.int(14)) * DAY
    earliest = day + (7 + random.int(10)) * HOUR
    latest = earliest + (1 + random.int(4)) * HOUR
  }

  let assignedUserId: string | null = null
  let shiftId: string | null = null
  let scheduledStart: number | null = null
  let startedAt: number | null = null
  let completedAt: number | null = null
  if (status === 'ASSIGNED' || status === 'IN_PROGRESS' || status === 'COMPLETED') {
    const worker = random.pick(organisation.workers)
    assignedUserId = worker.id
    shiftId = random.pick(worker.shiftIds)
    scheduledStart = earliest ?? Math.floor(createdAt / DAY) * DAY + DAY + (8 + random.int(8)) * HOUR
    if (status !== 'ASSIGNED') startedAt = scheduledStart + random.int(20) * 60_000
    if (status === 'COMPLETED') {
      completedAt = (startedAt as number) + Math.round(serviceDuration * (0.7 + random() * 0.7)) * 1000
    }
  }
  const updatedAt = completedAt ?? startedAt ?? createdAt + random.int(3) * HOUR
  const deleted = status !== 'IN_PROGRESS' && random() < 0.01

  sink.insert('jobs', {
    id,
    organisation_id: organisation.id,
    title: random.pick(JOB_KINDS),
    description: random() < 0.5 ? random.pick(JOB_NOTES) : null,
    status,
    priority: random() < 0.15 ? 'HIGH' : random() < 0.2 ? 'LOW' : 'NORMAL',
    customer_id: customer?.id ?? null,
    location_id: depot?.id ?? null,
    job_latitude: place ? decimal(place.latitude + (random() - 0.5) * 0.001) : null,
    job_longitude: place ? decimal(place.longitude + (random() - 0.5) * 0.001) : null,
    service_duration: serviceDuration,
    time_window_type: customer?.timeWindowType ?? (random() < 0.7 ? 'HARD' : 'SOFT'),
    earliest_start: earliest === null ? null : iso(earliest),
    latest_end: latest === null ? null : iso(latest),
    scheduled_start: scheduledStart === null ? null : iso(scheduledStart),
    scheduled_end: scheduledStart === null ? null : iso(scheduledStart + serviceDuration * 1000),
    assigned_user_id: assignedUserId,
    shift_id: shiftId,
    started_at: startedAt === null ? null : iso(startedAt),
    completed_at: completedAt === null ? null : iso(completedAt),
    actual_duration: completedAt === null ? null : Math.round((completedAt - (startedAt as number)) / 1000),
    created_at: iso(createdAt),
    updated_at: iso(updatedAt),
    deleted_at: deleted ? iso(createdAt + DAY) : null,
  })
  if (random() < 0.3) {
    for (const tagId of random.some(organisation.tagIds, 1 + random.int(2))) {
      sink.insert('job_tags', { organisation_id: organisation.id, job_id: id, tag_id: tagId })
    }
  }
  if (random() < 0.25) {
    for (const dimensionId of random.some(organisation.dimensionIds, 1 + random.int(2))) {
      sink.insert('job_demands', {
        organisation_id: organisation.id,
        job_id: id,
        capacity_dimension_id: dimensionId,
        required_value: 1 + random.int(200),
      })
    }
  }
}
