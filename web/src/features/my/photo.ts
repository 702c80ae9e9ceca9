// A photo as the phone sends it: at most 2048 px on its long side, re-encoded as JPEG, turned the way
// the camera held it (EXIF orientation, applied by createImageBitmap where the browser supports the
// option; elsewhere browsers apply it when decoding anyway). A camera's 12 MP, 5 MB original becomes a
// few hundred KB, which a weak connection can send.

export const MAX_PHOTO_SIDE = 2048
const JPEG_QUALITY = 0.85

async function decode(file: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' })
  } catch {
    return createImageBitmap(file)
  }
}

/** The size to draw at: the long side capped at `max`, the proportions kept. */
export function fitWithin(
  width: number,
  height: number,
  max = MAX_PHOTO_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height))
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

/** The photo downscaled and re-encoded; throws when the file is not an image the browser can read. */
export async function preparePhoto(file: Blob): Promise<Blob> {
  const bitmap = await decode(file)
  const size = fitWithin(bitmap.width, bitmap.height)
  const canvas = document.createElement('canvas')
  canvas.width = size.width
  canvas.height = size.height
  const context = canvas.getContext('2d')
  if (!context) throw new Error('This phone cannot prepare photos (no canvas).')
  context.drawImage(bitmap, 0, 0, size.width, size.height)
  bitmap.close()
  return canvasBlob(canvas, 'image/jpeg', JPEG_QUALITY)
}

export function canvasBlob(canvas: HTMLCanvasElement, type: string, quality?: number): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The picture could not be encoded.'))),
      type,
      quality,
    ),
  )
}
