// The header row of a CSV file, read in the browser to offer its columns for mapping: only the
// file's first 64 KiB are read (a 10,000-row file is not loaded to learn its columns), parsed the way
// the server's csv-parse reads it — commas, double quotes around a cell, "" for a quote inside one,
// CRLF or LF, a UTF-8 byte-order mark ignored.

const HEAD_BYTES = 64 * 1024

/** The cells of the first record of `text` (a quoted cell may hold commas and line breaks). */
export function firstRecord(text: string): string[] {
  const cells: string[] = []
  let cell = ''
  let quoted = false
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  for (; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"' && cell === '') quoted = true
    else if (char === ',') {
      cells.push(cell)
      cell = ''
    } else if (char === '\n' || char === '\r') break
    else cell += char
  }
  cells.push(cell)
  return cells.map((name) => name.trim())
}

/** The file's column names, in order (an empty file: none). */
export async function readHeader(file: Blob): Promise<string[]> {
  const text = await file.slice(0, HEAD_BYTES).text()
  if (text.trim() === '') return []
  return firstRecord(text)
}
