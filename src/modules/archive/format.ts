// The archive's name and version, written in its header line and checked by the import.
export const ARCHIVE_FORMAT = 'fieldservice-archive'
export const ARCHIVE_VERSION = 1
/** Bytes of attachment content per line (base64 makes a line of about 64 KiB). */
export const CONTENT_LINE_BYTES = 48 * 1024

/** An archive that cannot be restored, or a target that cannot take it: the message says why. */
export class ArchiveError extends Error {
  override name = 'ArchiveError'
}
