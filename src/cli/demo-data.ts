// The fixed material of the demo organisation (see demo-seed.ts for how it is put together): a
// plumbing and heating firm with two depots around Manchester, its vans, team, customers and the
// kinds of job it does. Streets are real; coordinates are approximate; people and firms are made up.
import type { JobPriority, TimeWindowType, VehicleEndPolicy } from '../db/types.js'

export const DEMO_ORGANISATION = { name: 'Demo Plumbing & Heating Ltd', plan: 'ENTERPRISE' } as const
/** Seed of the demo's PRNG: the same seed gives the same demo. */
export const DEMO_RANDOM_SEED = 0x5eed_2026
export const DEMO_JOB_COUNT = 150
export const DEMO_EMAIL_DOMAIN = 'demo-plumbing.example'

/** Depots as location rows (without ids and timestamps). */
export const DEPOTS = [
  {
    name: 'Trafford Park Depot',
    code: 'TPK',
    description: 'Head office and main stores; boiler and cylinder stock, heat-pump workshop',
    address: 'Unit 4, Westinghouse Road, Trafford Park, Manchester M17 1PY',
    latitude: '53.4662',
    longitude: '-2.3115',
    timezone: 'Europe/London',
    is_primary: true,
    is_active: true,
  },
  {
    name: 'Stockport Depot',
    code: 'SKP',
    description: 'Satellite stores for the south and east of the city',
    address: 'Unit 12, Bredbury Park Way, Bredbury, Stockport SK6 2SN',
    latitude: '53.421',
    longitude: '-2.1225',
    timezone: 'Europe/London',
    is_primary: false,
    is_active: true,
  },
]

export const TAGS = ['gas-safe', 'refrigerated', 'ladder-rack', 'electric', 'heavy-lift'] as const
export type DemoTag = (typeof TAGS)[number]

/**
 * What a plumber's van runs out of: room on its shelves and in its bins for fittings, valves and tools;
 * the length of pipe on its roof rack; and the large items (boilers, cylinders, radiators) it can take
 * at once. Units: one shelf unit is one standard stock bin.
 */
export const CAPACITY_DIMENSIONS = [
  { key: 'shelf_units', label: 'Van shelf space (units)' },
  { key: 'pipe_m', label: 'Pipe length (m)' },
  { key: 'large_items', label: 'Large items (boilers, cylinders, radiators)' },
] as const
export type DemoDimension = (typeof CAPACITY_DIMENSIONS)[number]['key']
export type DemoLoad = Partial<Record<DemoDimension, number>>

export interface DemoVehicle {
  name: string
  depot: number
  costs: { fixed: number; perKm: number; perHour: number; speedFactor: number }
  /** Where the van starts its day; null: at its depot. */
  start: [latitude: number, longitude: number] | null
  endPolicy: VehicleEndPolicy
  isActive: boolean
  tags: DemoTag[]
  capacities: DemoLoad
}

export const VEHICLES: DemoVehicle[] = [
  {
    name: 'Ford Transit Custom MX71 KPD',
    depot: 0,
    costs: { fixed: 45, perKm: 0.42, perHour: 24, speedFactor: 1 },
    start: [53.451, -2.349],
    endPolicy: 'RETURN_TO_ORIGIN',
    isActive: true,
    tags: ['gas-safe', 'ladder-rack'],
    capacities: { shelf_units: 24, pipe_m: 30, large_items: 2 },
  },
  {
    name: 'Vauxhall Vivaro MA22 RHT',
    depot: 0,
    costs: { fixed: 40, perKm: 0.38, perHour: 24, speedFactor: 1.05 },
    start: null,
    endPolicy: 'END_AT_LAST_JOB',
    isActive: true,
    tags: ['gas-safe'],
    capacities: { shelf_units: 20, pipe_m: 24, large_items: 1 },
  },
  {
    name: 'Renault Master LWB MF70 UZB',
    depot: 0,
    costs: { fixed: 65, perKm: 0.55, perHour: 26, speedFactor: 0.9 },
    start: [53.4662, -2.3115],
    endPolicy: 'RETURN_TO_ORIGIN',
    isActive: true,
    tags: ['ladder-rack', 'heavy-lift'],
    capacities: { shelf_units: 36, pipe_m: 60, large_items: 4 },
  },
  {
    name: 'Mercedes eSprinter ML23 EVA',
    depot: 1,
    costs: { fixed: 55, perKm: 0.18, perHour: 25, speedFactor: 0.95 },
    start: null,
    endPolicy: 'RETURN_TO_ORIGIN',
    isActive: true,
    tags: ['electric', 'refrigerated', 'gas-safe'],
    capacities: { shelf_units: 30, pipe_m: 36, large_items: 2 },
  },
  {
    name: 'Citroen e-Berlingo MW24 LZN',
    depot: 1,
    costs: { fixed: 30, perKm: 0.12, perHour: 21, speedFactor: 1.1 },
    start: [53.433, -2.17],
    endPolicy: 'END_AT_LAST_JOB',
    isActive: true,
    tags: ['electric', 'gas-safe'],
    capacities: { shelf_units: 12, pipe_m: 12 },
  },
  {
    name: 'Ford Transit MK17 GFO (spare, in for repair)',
    depot: 1,
    costs: { fixed: 45, perKm: 0.48, perHour: 24, speedFactor: 1 },
    start: null,
    endPolicy: 'RETURN_TO_ORIGIN',
    isActive: false,
    tags: ['ladder-rack'],
    capacities: { shelf_units: 24, pipe_m: 30, large_items: 2 },
  },
]

/** Shift times are local to the depot (HH:MM); breaks lie inside the shift. */
export interface ShiftPattern {
  start: string
  end: string
  breaks: { start: string; end: string; isPaid: boolean }[]
}

const TEA = (start: string, end: string) => ({ start, end, isPaid: true })
const LUNCH = (start: string, end: string) => ({ start, end, isPaid: false })
const pattern = (start: string, end: string, ...breaks: ShiftPattern['breaks']) => ({ start, end, breaks })
const EARLY = pattern('07:00', '15:30', TEA('09:30', '09:45'), LUNCH('12:00', '12:30'))
const DAY = pattern('07:30', '16:00', TEA('10:00', '10:15'), LUNCH('12:30', '13:00'))
const LONG = pattern('08:00', '17:00', TEA('10:15', '10:30'), LUNCH('13:00', '13:30'))
const MORNING = pattern('07:00', '13:30', TEA('10:00', '10:15'))
const LATE = pattern('13:30', '21:00', TEA('15:45', '16:00'), LUNCH('18:00', '18:30'))
const SATURDAY = pattern('08:00', '13:00', TEA('10:30', '10:45'))

/** Workers drive one van; Dan and Megan share the e-Berlingo on early and late shifts. */
export const WORKERS = [
  { name: 'Aisha Khan', depot: 0, vehicle: 0, weekday: DAY, saturday: SATURDAY },
  { name: 'Tom Whitworth', depot: 0, vehicle: 1, weekday: LONG, saturday: null },
  { name: 'Gareth Lloyd', depot: 0, vehicle: 2, weekday: LONG, saturday: SATURDAY },
  { name: 'Chloe Barker', depot: 1, vehicle: 3, weekday: EARLY, saturday: null },
  { name: 'Dan Okafor', depot: 1, vehicle: 4, weekday: MORNING, saturday: null },
  { name: 'Megan Rhodes', depot: 1, vehicle: 4, weekday: LATE, saturday: SATURDAY },
]
export const DISPATCHER = { name: 'Rachel Moss' }
/** On holiday Monday to Friday of the week after the demo's. */
export const HOLIDAY_WORKER = 'Dan Okafor'

const street = (street: string, area: string, district: string, latitude: number, longitude: number) => {
  const town = district.startsWith('SK') ? 'Stockport' : district === 'M33' ? 'Sale' : 'Manchester'
  return { street, area, town, district, latitude, longitude }
}
export const STREETS = [
  street('Burton Road', 'West Didsbury', 'M20', 53.4268, -2.2406),
  street('Lapwing Lane', 'West Didsbury', 'M20', 53.4236, -2.2385),
  street('Wilmslow Road', 'Withington', 'M20', 53.4345, -2.229),
  street('Palatine Road', 'Northenden', 'M22', 53.4095, -2.2525),
  street('Barlow Moor Road', 'Chorlton-cum-Hardy', 'M21', 53.4395, -2.277),
  street('Beech Road', 'Chorlton-cum-Hardy', 'M21', 53.443, -2.281),
  street('Wilbraham Road', 'Chorlton-cum-Hardy', 'M21', 53.4425, -2.27),
  street('Upper Chorlton Road', 'Whalley Range', 'M16', 53.4565, -2.264),
  street('Kings Road', 'Firswood', 'M16', 53.452, -2.288),
  street('Edge Lane', 'Stretford', 'M32', 53.447, -2.296),
  street('Washway Road', 'Sale', 'M33', 53.429, -2.327),
  street('Northenden Road', 'Sale', 'M33', 53.425, -2.313),
  street('Liverpool Road', 'Patricroft', 'M30', 53.484, -2.343),
  street('Eccles New Road', 'Weaste', 'M5', 53.485, -2.3),
  street('Langworthy Road', 'Seedley', 'M6', 53.496, -2.299),
  street('Bolton Road', 'Pendlebury', 'M27', 53.509, -2.318),
  street('Bury New Road', 'Prestwich', 'M25', 53.533, -2.285),
  street('Great Clowes Street', 'Broughton', 'M7', 53.499, -2.256),
  street('Cheetham Hill Road', 'Cheetham Hill', 'M8', 53.503, -2.237),
  street('Middleton Road', 'Crumpsall', 'M8', 53.516, -2.235),
  street('Moston Lane', 'Moston', 'M40', 53.52, -2.194),
  street('Oldham Road', 'Newton Heath', 'M40', 53.5, -2.186),
  street('Ashton New Road', 'Clayton', 'M11', 53.483, -2.179),
  street('Ashton Old Road', 'Openshaw', 'M11', 53.473, -2.177),
  street('Hyde Road', 'Gorton', 'M18', 53.462, -2.185),
  street('Stockport Road', 'Levenshulme', 'M19', 53.444, -2.194),
  street('Kingsway', 'Burnage', 'M19', 53.43, -2.215),
  street('Ladybarn Lane', 'Fallowfield', 'M14', 53.443, -2.216),
  street('Moss Lane East', 'Moss Side', 'M14', 53.461, -2.238),
  street('Oxford Road', 'Chorlton-on-Medlock', 'M13', 53.467, -2.234),
  street('Deansgate', 'City Centre', 'M3', 53.479, -2.25),
  street('Thomas Street', 'Northern Quarter', 'M4', 53.484, -2.236),
  street('Market Street', 'Droylsden', 'M43', 53.481, -2.146),
  street('Shaw Road', 'Heaton Moor', 'SK4', 53.423, -2.186),
  street('Didsbury Road', 'Heaton Mersey', 'SK4', 53.415, -2.199),
  street('Wellington Road North', 'Heaton Chapel', 'SK4', 53.427, -2.178),
  street('Stockport Road West', 'Bredbury', 'SK6', 53.42, -2.115),
]

/** Customers of one kind, from names written as prose (separated by commas and line breaks). */
const customers = (kind: 'home' | 'business', names: string) =>
  names
    .split(/[,\n]/)
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => ({ name, kind }))

/** 40 customers: households and landlords keep home hours, firms their opening hours. */
export const CUSTOMERS = [
  ...customers(
    'home',
    `Mrs Janet Holloway, Mr Arjun Patel, Dr Helen Fairbrother, Mr & Mrs Oduya, Ms Sian Griffiths,
    Mr Liam Doherty, Mrs Farah Siddiqui, Mr Piotr Kowalski, Ms Grace Ellison, Mr Kwame Mensah,
    Mrs Brenda Ashworth, Mr Callum Reid, Ms Yasmin Hussain, Mr Geoff Pilling, Mrs Niamh Brennan,
    Mr Hamid Rahimi, Ms Leah Cohen, Mr Stuart Entwistle, Mrs Ewa Nowak, Mr Dev Sharma,
    Northern Lettings Ltd, Hulme Housing Co-operative, Maple Court Residents Association,
    Irwell Student Lets`,
  ),
  ...customers(
    'business',
    `The Bridgewater Arms, Didsbury Dental Practice, Chorlton Bakehouse, Levenshulme Launderette,
    Northern Quarter Coffee Co., Heaton Moor Medical Centre, Rusholme Spice Kitchen,
    Whalley Range Community Hall, Sale Waterside Cafe, Stretford Veterinary Surgery,
    Castlefield Hotel & Spa, Withington Day Nursery, Fallowfield Fitness Studio,
    Pendlebury Court Care Home, Prestwich Garden Centre, Openshaw Motor Repairs`,
  ),
]

/**
 * A customer's phone, email and notes, from its place in CUSTOMERS (no random draw: the rest of the
 * demo stays as it was). Numbers are from Ofcom's ranges set aside for drama — 0161 496 0000–0999
 * (Manchester) and 07700 900000–900999 (mobiles) — and addresses use the reserved example domains,
 * so nobody real is ever called or mailed. Every third customer has no email; notes say what a
 * technician needs at the door.
 */
export function customerContact(
  name: string,
  kind: 'home' | 'business',
  index: number,
): { phone: string; email: string | null; notes: string | null } {
  const serial = String(index * 37 + 100)
    .padStart(3, '0')
    .slice(-3)
  const phone = kind === 'home' ? `+447700900${serial}` : `+441614960${serial}`
  const words = name
    .toLowerCase()
    .replace(/^(mr & mrs|mrs|mr|ms|dr) /, '')
    .replace(/&/g, 'and')
    .replace(/[^a-z ]/g, '')
    .trim()
    .split(/\s+/)
  const email =
    index % 3 === 2
      ? null
      : kind === 'home'
        ? `${words.join('.')}@example.com`
        : `office@${words.join('-')}.example`
  const notes = CUSTOMER_NOTES[kind][index % CUSTOMER_NOTES[kind].length] ?? null
  return { phone, email, notes }
}

const CUSTOMER_NOTES: Record<'home' | 'business', (string | null)[]> = {
  home: [
    'Side gate code 1942. Dog in the garden: ring first.',
    null,
    'Park on the drive; the street is residents only.',
    'Key safe by the back door, code from the office.',
    null,
    'Elderly resident: call 30 minutes before arrival.',
  ],
  business: [
    'Deliveries entrance on the side street; ask for the manager.',
    null,
    'Open to the public: work out of hours where possible.',
    'Sign in at reception and wear the visitor badge.',
  ],
}

/** Opening hours (HH:MM) by kind of customer; 00:00–23:59 means no restriction. */
export const OPERATIONAL_HOURS = {
  home: ['00:00-23:59', '08:00-20:00', '07:30-18:00', '00:00-23:59'],
  business: ['07:00-19:00', '09:00-17:30', '08:00-18:00'],
}
export const SERVICE_DURATIONS = [1800, 2700, 3600, 3600, 5400]
export const CUSTOMER_PRIORITIES: Record<'home' | 'business', JobPriority[]> = {
  home: ['NORMAL', 'NORMAL', 'NORMAL', 'NORMAL', 'LOW', 'HIGH'],
  business: ['NORMAL', 'NORMAL', 'HIGH', 'LOW'],
}
/** Windows (local times) offered for jobs not scheduled yet: morning, afternoon, all day, evening. */
export const UNSCHEDULED_WINDOWS = ['08:00-12:00', '12:00-17:00', '08:00-18:00', '17:00-20:00']

export interface JobTemplate {
  title: string
  minutes: number
  priority?: JobPriority
  timeWindowType?: TimeWindowType
  tags?: DemoTag[]
  demands?: DemoLoad
}

export const JOB_TEMPLATES: JobTemplate[] = [
  { title: 'Boiler service', minutes: 60, tags: ['gas-safe'], demands: { shelf_units: 2 } },
  { title: 'Boiler breakdown - no heating', minutes: 90, priority: 'HIGH', tags: ['gas-safe'] },
  { title: 'Gas safety certificate (CP12)', minutes: 45, tags: ['gas-safe'] },
  { title: 'Gas hob connection', minutes: 45, tags: ['gas-safe'], demands: { shelf_units: 1, pipe_m: 2 } },
  { title: 'Leaking tap repair', minutes: 30, demands: { shelf_units: 1 } },
  { title: 'Toilet cistern repair', minutes: 45, demands: { shelf_units: 1 } },
  { title: 'Shower valve replacement', minutes: 90, demands: { shelf_units: 2, pipe_m: 3 } },
  { title: 'Blocked drain clearance', minutes: 60, demands: { shelf_units: 4 } },
  { title: 'Burst pipe - emergency', minutes: 60, priority: 'HIGH', demands: { shelf_units: 2, pipe_m: 6 } },
  { title: 'Radiator replacement', minutes: 120, demands: { shelf_units: 2, pipe_m: 4, large_items: 1 } },
  { title: 'Power flush', minutes: 150, demands: { shelf_units: 6 } },
  { title: 'Smart thermostat installation', minutes: 60, tags: ['electric'], demands: { shelf_units: 1 } },
  { title: 'Immersion heater replacement', minutes: 75, tags: ['electric'], demands: { shelf_units: 1 } },
  { title: 'Gutter and downpipe repair', minutes: 90, tags: ['ladder-rack'], demands: { pipe_m: 4 } },
  { title: 'Air-conditioning service', minutes: 90, tags: ['refrigerated'], demands: { shelf_units: 2 } },
  { title: 'Heat pump annual service', minutes: 90, tags: ['electric', 'refrigerated'] },
  { title: 'Quote visit - bathroom refit', minutes: 45, priority: 'LOW', timeWindowType: 'SOFT' },
  {
    title: 'Hot water cylinder replacement',
    minutes: 180,
    tags: ['heavy-lift'],
    demands: { shelf_units: 4, pipe_m: 8, large_items: 1 },
  },
]

/** Work done at a depot rather than at a customer's address. */
export const DEPOT_JOB_TEMPLATES: JobTemplate[] = [
  { title: 'Van stock replenishment', minutes: 45, priority: 'LOW', demands: { shelf_units: 10 } },
  { title: 'Vehicle safety check', minutes: 30, priority: 'LOW' },
  { title: 'Collect boiler delivery', minutes: 30, tags: ['heavy-lift'], demands: { large_items: 3 } },
]

/** What each kind of job involves, by title: the job description in the demo. */
export const JOB_DESCRIPTIONS: Record<string, string> = {
  'Boiler service': 'Annual combi boiler service: flue gas analysis, burner clean, seals and pressure check.',
  'Boiler breakdown - no heating': 'Boiler locking out with an F28 fault; no heating or hot water.',
  'Gas safety certificate (CP12)': 'Landlord gas safety record: boiler, hob and flue; copy for the tenant.',
  'Gas hob connection': 'Connect a new freestanding gas cooker with a bayonet hose and stability chain.',
  'Leaking tap repair': 'Dripping kitchen mixer tap; replace the ceramic cartridge or washers.',
  'Toilet cistern repair': 'Cistern keeps running after a flush; replace the fill valve and flush seal.',
  'Shower valve replacement': 'Thermostatic bar valve running cold; replace it and check the pressure.',
  'Blocked drain clearance': 'Slow-draining kitchen waste and smell at the gully; rod and jet the run.',
  'Burst pipe - emergency': 'Water coming through the ceiling below the bathroom; isolate, find and repair.',
  'Radiator replacement': 'Swap a corroded double-panel radiator for a new one; drain and refill.',
  'Power flush': 'Radiators cold at the bottom; power flush the system and dose with inhibitor.',
  'Smart thermostat installation': "Fit and commission a smart thermostat and set up the customer's app.",
  'Immersion heater replacement': 'Immersion element failed; drain the cylinder and fit a new 3 kW element.',
  'Gutter and downpipe repair': 'Leaking gutter joint over the back door and a cracked downpipe bracket.',
  'Air-conditioning service': 'F-gas leak check and filter clean of a split-system unit; top up if needed.',
  'Heat pump annual service': 'Air-source heat pump: refrigerant check, fan clean, glycol and controls.',
  'Quote visit - bathroom refit': 'Measure up and quote for a full bathroom refit with a walk-in shower.',
  'Hot water cylinder replacement': 'Replace a vented cylinder with a 210 l unvented unit; G3 commissioning.',
  'Van stock replenishment': 'Restock fittings, valves and consumables from the depot stores.',
  'Vehicle safety check': 'Weekly walk-round check: tyres, lights, fluids, ladder straps and first-aid kit.',
  'Collect boiler delivery': "Collect three boilers from goods-in for this week's installs.",
}

export const ACCESS_NOTES = [
  'Key safe by the back door; code from the office.',
  'Customer works from home; ring the bell twice.',
  'Parking permit needed: ask at the front desk.',
  'Dog in the garden, friendly but keep the gate shut.',
  'Call 30 minutes before arrival.',
  'Tenant on nights; not before 10:00 if it can be helped.',
  'Access via the rear service yard.',
]
