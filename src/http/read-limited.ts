// An outbound service's answer read as text, never more than `maxBytes` of it: the road travel
// service and the geocoder are the organisation's or a third party's, and a body without end must
// not fill the process's memory. Over the limit the read is cancelled and `tooLarge()` thrown.
export async function readLimitedText(
  response: Response,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
