// CSV made in the browser for the smaller lists (series, team, shifts, fleet, settings lists), by the rules the
// server's exports follow (src/modules/imports/csv-export.ts): a header row, cells quoted when they
// hold a comma, quote or line break, and text that a spreadsheet would run as a formula (= + - @, tab,
// CR) prefixed with ' — a plain number such as -2.2346 stays a number.

const FORMULA_START = /^[=+\-@\t\r]/
const PLAIN_NUMBER = /^-?[0-9]+(\.[0-9]+)?$/

export interface CsvColumn<Row> {
  header: string
  value: (row: Row) => string | number | boolean | null | undefined
}

function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return ''
  let text = String(value)
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => cell(column.header)).join(',')]
  for (const row of rows) lines.push(columns.map((column) => cell(column.value(row))).join(','))
  return `${lines.join('\r\n')}\r\n`
}

/** Every page of a paged list: `load(page)` answers one page and the pagination. */
export async function allPages<Item>(
  load: (page: number) => Promise<{ items: Item[]; total: number }>,
): Promise<Item[]> {
  const items: Item[] = []
  for (let page = 1; ; page++) {
    const answer = await load(page)
    items.push(...answer.items)
    if (answer.items.length === 0 || items.length >= answer.total) return items
  }
}

/** Hands the text to the browser as a file download. */
export function saveFile(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
