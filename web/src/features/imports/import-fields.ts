// What each kind of import can read: our field names (POST /customers' and POST /jobs' names, as the
// server's IMPORT_FIELDS lists them), in words for the mapping step, and the file's column each is
// guessed to be in.

export type ImportKind = 'customers' | 'jobs'

export interface ImportField {
  name: string
  label: string
  /** Needed by every row (externalId), or by every new record (POST's required fields). */
  required?: 'always' | 'new'
  hint?: string
  /** Other column names it is often given in spreadsheets (compared as normalised below). */
  aliases?: string[]
}

export const IMPORT_FIELDS: Record<ImportKind, ImportField[]> = {
  customers: [
    {
      name: 'externalId',
      label: 'External reference',
      required: 'always',
      hint: 'Your own id for the customer: importing again updates the customer with it',
      aliases: ['external id', 'reference', 'ref', 'account', 'account no', 'account number', 'customer no'],
    },
    { name: 'name', label: 'Name', required: 'new', aliases: ['customer', 'customer name', 'company'] },
    { name: 'address', label: 'Address', aliases: ['street', 'full address'] },
    { name: 'latitude', label: 'Latitude', required: 'new', aliases: ['lat'] },
    { name: 'longitude', label: 'Longitude', required: 'new', aliases: ['lng', 'lon', 'long'] },
    { name: 'serviceDuration', label: 'Service time (seconds)', aliases: ['duration', 'service time'] },
    { name: 'priority', label: 'Priority', hint: 'LOW, NORMAL or HIGH' },
    { name: 'timeWindowType', label: 'Window type', hint: 'HARD or SOFT' },
    { name: 'operationalStart', label: 'Opens at', hint: 'HH:MM', aliases: ['opens', 'open from'] },
    { name: 'operationalEnd', label: 'Closes at', hint: 'HH:MM', aliases: ['closes', 'open until'] },
    { name: 'email', label: 'Email', aliases: ['e-mail', 'email address'] },
    { name: 'phone', label: 'Phone', aliases: ['telephone', 'tel', 'mobile', 'phone number'] },
    { name: 'notes', label: 'Notes', aliases: ['comments', 'access notes'] },
  ],
  jobs: [
    {
      name: 'externalId',
      label: 'External reference',
      required: 'always',
      hint: 'Your own id for the job: importing again updates the job with it',
      aliases: ['external id', 'reference', 'ref', 'job no', 'job number', 'work order'],
    },
    { name: 'title', label: 'Title', required: 'new', aliases: ['job', 'job title', 'summary'] },
    { name: 'description', label: 'Description', aliases: ['details', 'notes'] },
    {
      name: 'customerExternalId',
      label: 'Customer (external reference)',
      hint: 'The externalId of a customer already imported',
      aliases: ['customer ref', 'customer reference', 'account', 'account no', 'customer external id'],
    },
    { name: 'customerId', label: 'Customer (id here)' },
    { name: 'locationId', label: 'Depot (id here)' },
    { name: 'address', label: 'Address of the job', aliases: ['site address', 'job address'] },
    { name: 'jobLatitude', label: 'Latitude of the job', aliases: ['lat', 'latitude'] },
    { name: 'jobLongitude', label: 'Longitude of the job', aliases: ['lng', 'lon', 'longitude'] },
    { name: 'serviceDuration', label: 'Service time (seconds)', aliases: ['duration'] },
    { name: 'priority', label: 'Priority', hint: 'LOW, NORMAL or HIGH' },
    { name: 'timeWindowType', label: 'Window type', hint: 'HARD or SOFT' },
    {
      name: 'earliestStart',
      label: 'Window from',
      hint: 'Date and time, e.g. 2026-12-01T09:00:00Z',
      aliases: ['from', 'start', 'earliest'],
    },
    { name: 'latestEnd', label: 'Window to', hint: 'Date and time', aliases: ['to', 'end', 'latest'] },
    {
      name: 'dueBy',
      label: 'Due by',
      hint: 'Date, e.g. 2026-12-11',
      aliases: ['due', 'duedate', 'deadline'],
    },
  ],
}

/** "Account No." → "accountno": how column names and field names are compared. */
export const normalised = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '')

/** Each field's column in `header`: its own name, its label or an alias, ignoring case and punctuation. */
export function guessMapping(kind: ImportKind, header: readonly string[]): Record<string, string> {
  const columns = new Map(header.filter(Boolean).map((column) => [normalised(column), column]))
  const taken = new Set<string>()
  const mapping: Record<string, string> = {}
  for (const field of IMPORT_FIELDS[kind]) {
    for (const candidate of [field.name, field.label, ...(field.aliases ?? [])]) {
      const column = columns.get(normalised(candidate))
      if (column !== undefined && !taken.has(column)) {
        mapping[field.name] = column
        taken.add(column)
        break
      }
    }
  }
  return mapping
}
