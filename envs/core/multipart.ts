import { JsonShapeError, parseJsonWithin } from './json-width.ts'
import { GoogleApiError } from './errors/google.ts'
import { badRequest } from './errors/google.ts'

/**
 * A Google `uploadType=multipart` body (multipart/related): a JSON metadata part, then the media part.
 * Returns the parsed metadata, the media bytes and the media part's content type.
 * @see https://developers.google.com/drive/api/guides/manage-uploads#multipart
 */
export function splitRelated(
  contentType: string,
  body: Buffer,
): { meta: Record<string, unknown>; data: Buffer; dataType: string | undefined } {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  if (!boundary) throw badRequest('Multipart upload needs a boundary.', 'badContent')
  const text = body.toString('latin1')
  const parts = text
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
  if (parts.length < 2) throw badRequest('Multipart upload needs a metadata part and a media part.', 'badContent')
  const piece = (p: string) => {
    const m = /\r?\n\r?\n/.exec(p)
    return { head: m ? p.slice(0, m.index) : '', body: m ? p.slice(m.index + m[0].length).replace(/\r?\n$/, '') : '' }
  }
  const metaPart = piece(parts[0]!)
  const dataPart = piece(parts[1]!)
  let meta: Record<string, unknown>
  try {
    // A metadata object wider (0387) or deeper than any API takes is refused before it is parsed: the app's body
    // check does not see a multipart body, and 30 MB of `[` held the loop 17 s and 2.5 GB (0401).
    const parsed: unknown = metaPart.body.trim()
      ? parseJsonWithin(Buffer.from(metaPart.body, 'latin1').toString('utf8'))
      : {}
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
    meta = parsed as Record<string, unknown>
  } catch (e) {
    if (e instanceof JsonShapeError && e.fault === 'wide')
      throw badRequest('Invalid JSON payload received in the metadata part: an object is too wide.', 'parseError')
    throw badRequest('Invalid JSON payload received in the metadata part.', 'parseError')
  }
  const dataType = /content-type:\s*([^\r\n;]+)/i.exec(dataPart.head)?.[1]?.trim()
  return { meta, data: Buffer.from(dataPart.body, 'latin1'), dataType }
}

/**
 * Refuses an upload whose bytes (received so far, or announced in `Content-Range: …/total`) pass `max`:
 * 413 with Google's `uploadTooLarge` reason, before the bytes are stored.
 */
export function checkUploadSize(received: number, announced: number | undefined, max: number): void {
  const size = Math.max(received, announced ?? 0)
  if (size > max) {
    throw new GoogleApiError(
      'INVALID_ARGUMENT',
      'uploadTooLarge',
      `Media upload too large: ${size} bytes (the limit is ${max}).`,
      {},
      413,
    )
  }
}
