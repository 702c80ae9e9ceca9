// Word lists the dataset draws from, so customers, vans and jobs look like a real firm's data and
// `GET /customers?search=` has something realistic to find. People and firms are made up.

export const FIRST_NAMES = (
  'Oliver George Harry Jack Jacob Noah Charlie Thomas Oscar William James Leo Alfie Henry Joshua ' +
  'Freddie Archie Ethan Isaac Alexander Amelia Olivia Isla Emily Poppy Ava Isabella Jessica Lily ' +
  'Sophie Grace Sophia Mia Evie Ruby Ella Scarlett Chloe Daisy Freya Priya Aisha Mohammed Yusuf ' +
  'Zainab Wojciech Agnieszka Siobhan Ciaran Niamh Rhys Carys Eilidh Callum Fatima Hamza Maya Leon ' +
  'Zofia Dylan'
).split(' ')

/** `ashworth` (SEARCH_TERM) is one of about 150 surnames: it finds a few dozen of 5 000 customers. */
export const SURNAMES = (
  'Smith Jones Taylor Brown Williams Wilson Johnson Davies Robinson Wright Thompson Evans Walker ' +
  'White Roberts Green Hall Wood Jackson Clarke Patel Khan Lewis James Phillips Mason Mitchell Rose ' +
  'Davis Rodriguez Cox Alexander Morgan Moore Martin Price Lee Scott Turner Baker Harris Edwards ' +
  'Hughes Cooper Hill Ward Morris King Watson Harrison Lloyd Young Bennett Allen Shaw Hussain Begum ' +
  'Ali Ahmed Kowalski Nowak Murphy Kelly Byrne Doyle Walsh Reilly Fletcher Holt Ashworth Barlow Dean ' +
  'Sutcliffe Greenwood Haworth Kershaw Pilling Rawlinson Schofield Whitworth Ainsworth Ormerod Crompton ' +
  'Openshaw Nuttall Tattersall Hargreaves Entwistle Horrocks Bamford Cunliffe Heywood Lomax Ogden ' +
  'Pickup Ramsbottom Stott Tonge Warburton Yates Brierley Butterworth Chadwick Duckworth Eccles Fairclough ' +
  'Grimshaw Hindle Isherwood Kenyon Lord Mellor Pendlebury Rothwell Smethurst Tomlinson Unsworth ' +
  'Wolstenholme Booth Bradshaw Brooks Chapman Dixon Ellis Foster Gibson Holmes Knowles Marsh Naylor ' +
  'Parkinson Pearson Riley Simpson Stevenson Thorpe Whittaker Wilkinson Barker Barnes Carter Cross ' +
  'Dawson Fisher Gregory Hayes Howarth Jenkins Lambert Lowe Nicholson Pollard Sharples Swift Travis'
).split(' ')

export const SEARCH_TERM = 'ashworth'

export const BUSINESS_KINDS = [
  'Dental Practice',
  'Primary School',
  'Cafe',
  'Veterinary Surgery',
  'Lettings',
  'Garage',
  'Pharmacy',
  'Bakery',
  'Care Home',
  'Fitness Studio',
  'Hair Salon',
  'Solicitors',
]

export const STREETS = (
  'Oxford Road|Wilmslow Road|Deansgate|Stockport Road|Chester Road|Bury New Road|Rochdale Road|' +
  'Hyde Road|Princess Parkway|Palatine Road|Barlow Moor Road|Burton Road|Mauldeth Road|Kingsway|' +
  'Moss Lane|Church Lane|Park Road|Station Road|Victoria Avenue|Albert Road|Queens Road|Manor Road|' +
  'Mill Lane|Green Lane|Hall Lane|Grange Avenue|Beech Road|Elm Grove|Cedar Close|Oak Drive|' +
  'Willow Way|Chestnut Avenue|Lime Grove|Ash Street|Hawthorn Road|Rowan Close|Holly Bank|' +
  'Brook Street|Canal Street|Market Street|High Street|New Street|School Lane|Chapel Street|' +
  'Wellington Road|Worsley Road|Eccles New Road|Langworthy Road|Cheetham Hill Road|Ashton Old Road|' +
  'Oldham Road|Middleton Road|Manchester Road|Liverpool Road|Bolton Road|Bridge Street|' +
  'Marsland Road|Washway Road|Northenden Road|Shaw Road'
).split('|')

/** Towns around the two depots, with a centre to scatter coordinates around and a postcode area. */
export const TOWNS: { name: string; latitude: number; longitude: number; postcode: string }[] = [
  { name: 'Manchester', latitude: 53.4808, longitude: -2.2426, postcode: 'M1' },
  { name: 'Salford', latitude: 53.4875, longitude: -2.2901, postcode: 'M5' },
  { name: 'Stockport', latitude: 53.4106, longitude: -2.1575, postcode: 'SK1' },
  { name: 'Altrincham', latitude: 53.3838, longitude: -2.3547, postcode: 'WA14' },
  { name: 'Sale', latitude: 53.4242, longitude: -2.3227, postcode: 'M33' },
  { name: 'Stretford', latitude: 53.4466, longitude: -2.3086, postcode: 'M32' },
  { name: 'Didsbury', latitude: 53.4169, longitude: -2.2309, postcode: 'M20' },
  { name: 'Chorlton', latitude: 53.4416, longitude: -2.2775, postcode: 'M21' },
  { name: 'Prestwich', latitude: 53.5333, longitude: -2.2833, postcode: 'M25' },
  { name: 'Bury', latitude: 53.5933, longitude: -2.2966, postcode: 'BL9' },
  { name: 'Bolton', latitude: 53.5769, longitude: -2.4282, postcode: 'BL1' },
  { name: 'Oldham', latitude: 53.5409, longitude: -2.1114, postcode: 'OL1' },
  { name: 'Rochdale', latitude: 53.6097, longitude: -2.1561, postcode: 'OL16' },
  { name: 'Ashton-under-Lyne', latitude: 53.4897, longitude: -2.0952, postcode: 'OL6' },
  { name: 'Hyde', latitude: 53.4515, longitude: -2.0784, postcode: 'SK14' },
  { name: 'Wythenshawe', latitude: 53.3925, longitude: -2.2647, postcode: 'M22' },
  { name: 'Urmston', latitude: 53.4487, longitude: -2.3526, postcode: 'M41' },
  { name: 'Eccles', latitude: 53.4836, longitude: -2.3344, postcode: 'M30' },
  { name: 'Wilmslow', latitude: 53.3257, longitude: -2.2317, postcode: 'SK9' },
  { name: 'Bramhall', latitude: 53.3594, longitude: -2.1644, postcode: 'SK7' },
]

export const JOB_KINDS = [
  'Annual boiler service',
  'Boiler breakdown',
  'Leaking radiator valve',
  'Blocked drain',
  'Install thermostatic radiator valves',
  'Gas safety certificate',
  'Power flush',
  'Replace kitchen tap',
  'Unvented cylinder service',
  'Heat pump commissioning',
  'No hot water',
  'Burst pipe',
  'Fit new shower',
  'Landlord inspection',
  'Smart thermostat install',
  'Replace expansion vessel',
  'Outside tap install',
  'Toilet cistern repair',
  'Underfloor heating fault',
  'Quote visit',
]

export const JOB_NOTES = [
  'Customer works from home; call 30 minutes before arrival.',
  'Key safe by the back door, code on file.',
  'Parking permit needed: ask at reception.',
  'Dog in the garden, please use the front entrance.',
  'Second visit: parts ordered on the first.',
  'Elderly customer, allow extra time.',
  'Access via the rear lane only.',
  'Bring dust sheets; new carpets throughout.',
]

export const TAG_NAMES = [
  'gas-safe',
  'refrigerated',
  'ladder-rack',
  'electric',
  'heavy-lift',
  'unvented',
  'oftec',
  'two-person',
]

export const CAPACITY_DIMENSIONS = [
  { key: 'weight_kg', label: 'Weight (kg)', max: [600, 1400], demand: [5, 120] },
  { key: 'volume_l', label: 'Volume (l)', max: [3000, 12000], demand: [10, 900] },
  { key: 'pallets', label: 'Pallets', max: [1, 4], demand: [1, 1] },
] as const

export const VAN_MODELS = [
  'Ford Transit Custom',
  'Vauxhall Vivaro',
  'Renault Master',
  'Mercedes eSprinter',
  'Citroen e-Berlingo',
  'VW Transporter',
  'Peugeot Expert',
  'Toyota Proace',
]
