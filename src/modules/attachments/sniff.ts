// What an upload really is, from its first bytes: never from its name or its Content-Type. Each kind
// of attachment takes some of these types only (ACCEPTED), and the stored content type is the sniffed one.

export type SniffedType =
  | 'image/jpeg'
  | 'image/png'
  | 'image/webp'
  | 'image/heic'
  | 'image/heif'
  | 'application/pdf'

/** Bytes enough to tell every type below apart. */
export const SNIFF_BYTES = 16

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx'])
const HEIF_BRANDS = new Set(['mif1', 'msf1'])

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte)
const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.subarray(from, to)).toString('latin1')

/** The type of content starting with `head`, or null when it is none this service stores. */
export function sniffContentType(head: Uint8Array): SniffedType | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp'
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12)
    if (HEIC_BRANDS.has(brand)) return 'image/heic'
    if (HEIF_BRANDS.has(brand)) return 'image/heif'
  }
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf'
  return null
}

/** How the error message names content of no accepted type (a guess, for the message only). */
export function describeUnknown(head: Uint8Array): string {
  if (head.length === 0) return 'nothing (an empty body)'
  if (ascii(head, 0, 4) === 'GIF8') return 'a GIF image'
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'a ZIP archive (or an Office document)'
  if (ascii(head, 4, 8) === 'ftyp')
    return `an ISO media file of brand "${ascii(head, 8, 12).trim()}" (a video?)`
  const text = Buffer.from(head).toString('utf8')
  if (/^[\t\n\r\x20-\x7e]*$/.test(text)) return 'text'
  return 'an unrecognised format'
}

export const TYPE_NAMES: Record<SniffedType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/heic': 'HEIC',
  'image/heif': 'HEIF',
  'application/pdf': 'PDF',
}

export type AttachmentKind = 'PHOTO' | 'SIGNATURE' | 'FILE'

const IMAGES: SniffedType[] = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif']

/** The types each kind takes: photos as phones send them, signatures as PNG, admins' files. */
export const ACCEPTED: Record<AttachmentKind, readonly SniffedType[]> = {
  PHOTO: IMAGES,
  SIGNATURE: ['image/png'],
  FILE: ['application/pdf', ...IMAGES],
}

/** Shown inline by a browser (images); everything else is downloaded. */
export const isImage = (type: string) => type.startsWith('image/')
/** sharp makes thumbnails of these (this build of libvips has no HEIC decoder licence to rely on). */
export const HAS_THUMBNAIL = new Set<string>(['image/jpeg', 'image/png', 'image/webp'])
