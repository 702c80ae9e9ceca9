// A phone number for people to read. Numbers are stored in E.164 (+447700900123: one form to search
// and to dial); a UK number reads in its national form with the usual groups ("07700 900123",
// "0161 496 0123", "020 7946 0123"), any other country's as stored. `tel:` links keep the E.164 form.

export function displayPhone(e164: string): string {
  if (!e164.startsWith('+44')) return e164
  const rest = e164.slice(3)
  if (!/^\d{9,10}$/.test(rest)) return e164
  const national = `0${rest}`
  const groups = (...sizes: number[]) => {
    const parts: string[] = []
    let at = 0
    for (const size of sizes) {
      parts.push(national.slice(at, at + size))
      at += size
    }
    if (at < national.length) parts.push(national.slice(at))
    return parts.filter(Boolean).join(' ')
  }
  // Mobiles and other 07 numbers: 07700 900123.
  if (rest.startsWith('7')) return groups(5)
  // London and the other 02 areas: 020 7946 0123.
  if (rest.startsWith('2')) return groups(3, 4)
  // Cities with a 4-digit code (0113, 0161, 0121 …): 0161 496 0123.
  if (rest.startsWith('1') && (rest[1] === '1' || rest[2] === '1')) return groups(4, 3)
  // The other geographic codes: 01632 960123.
  if (rest.startsWith('1')) return groups(5)
  // Non-geographic 03, 08, 09: 0300 123 4567.
  return groups(4, 3)
}
