// Small previews of JPEG, PNG and WebP attachments for lists on the phone and the dashboard: WebP,
// at most 320 px on the longer side, turned upright by the photo's EXIF orientation. Made once, when
// the attachment is stored, from the stored content (streamed through sharp, never read whole here).
import type { Readable } from 'node:stream'
import sharp from 'sharp'

export const THUMBNAIL_PX = 320
export const THUMBNAIL_TYPE = 'image/webp'
/** Refuses decompression bombs: a phone's photo downscaled to 2048 px is 4 Mpx. */
const MAX_INPUT_PIXELS = 50_000_000

/** The thumbnail of an image, or null when sharp cannot read it (it is then stored without one). */
export async function makeThumbnail(image: Readable): Promise<Buffer | null> {
  const transform = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 })
  image.on('error', (error) => transform.destroy(error))
  image.pipe(transform)
  try {
    return await transform.toBuffer()
  } catch {
    image.destroy()
    return null
  }
}
