// What one header search box query means: text to find in titles, names, addresses and emails, the
// digits of a phone number, and a job number. Pure: the repositories turn it into SQL.

/** Trigram indexes (pg_trgm, FTS5's trigram tokenizer) cannot narrow a shorter substring. */
export const MIN_SEARCH_CHARACTERS = 3

export interface SearchTerms {
  /** Lowercased text for a substring match; null when shorter than the trigram minimum. */
  text: string | null
  /** The query's digits when it reads as a phone number ("07700 900123", "+44 7700-900123"). */
  digits: string | null
  /** The job number it names: "J-1042", "j1042" or "1042". */
  number: number | null
}

const PHONE_LIKE = /^[+\d\s().-]+$/
const JOB_NUMBER = /^(?:j-?)?(\d{1,9})$/i

export function searchTermsOf(query: string): SearchTerms {
  const trimmed = query.trim()
  const text = trimmed.toLowerCase()
  // Numbers are stored in E.164 (+447700900123) and typed as the caller reads them: a national trunk
  // 0 (07700 900123) or the international 00 (0044 7700 900123) is not among the stored digits, so it
  // is dropped and the rest is matched as a substring (any country code before it).
  const digits = PHONE_LIKE.test(trimmed) ? trimmed.replace(/\D/g, '').replace(/^00?/, '') : ''
  const number = JOB_NUMBER.exec(trimmed.replace(/\s/g, ''))
  return {
    text: [...text].length >= MIN_SEARCH_CHARACTERS ? text : null,
    digits: digits.length >= MIN_SEARCH_CHARACTERS ? digits : null,
    number: number ? Number(number[1]) : null,
  }
}

/** `%term%` for LIKE, with LIKE's own wildcards in the term matched literally (escape '\'). */
export function containsPattern(term: string): string {
  return `%${escapeLike(term)}%`
}

export function prefixPattern(term: string): string {
  return `${escapeLike(term)}%`
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** An FTS5 phrase: the trigram tokenizer matches it as a substring. */
export function ftsPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`
}
