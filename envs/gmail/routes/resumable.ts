import { eq } from 'drizzle-orm'
import type { WorldContext } from '../../core/http.ts'
import { badRequest, notFound } from '../../core/errors/google.ts'
import { urlSafeId } from '../../core/ids.ts'
import { checkUploadSize } from '../../core/multipart.ts'
import { uploads } from '../schema.ts'
import { resumeIncomplete } from '../../core/resumable.ts'
import { checkHeaderSize, uploadMeta, type MessageInput } from './message-input.ts'
import { publicRequestUrl } from '../../core/request-url.ts'
import { parseJsonWithin } from '../../core/json-width.ts'

/** The Gmail API's media upload limit (discovery `maxSize` of messages.send/insert/import: 35 MB). */
export const GMAIL_MAX_UPLOAD_BYTES = 36_700_160
/** messages.insert and messages.import take up to 150 MB. */
export const GMAIL_MAX_STORE_BYTES = 157_286_400

/**
 * `uploadType=resumable`: the first POST (JSON metadata such as `threadId`/`labelIds`) opens a session and
 * answers its URI in `Location`; PUTs to that URI carry the RFC 822 bytes, whole or in `Content-Range` chunks
 * (308 until complete). The finished input goes to the same operation as a simple upload.
 */
export async function openSession(c: WorldContext, userId: string) {
  const text = await c.req.text()
  let meta: Record<string, unknown> = {}
  if (text.trim()) {
    let parsed: unknown
    try {
      parsed = parseJsonWithin(text)
    } catch {
      throw badRequest('Invalid JSON payload received.', 'parseError')
    }
    // `null` is no metadata; a number, string or list is no Message (stored, it answered the upload a 500: 0387).
    if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed)))
      throw badRequest('Invalid JSON payload received.', 'parseError')
    meta = (parsed ?? {}) as Record<string, unknown>
  }
  const id = c.var.world.tx((db) => {
    const sid = urlSafeId(db, 'gmail.upload', 40)
    db.insert(uploads)
      .values({ id: sid, userId, metadata: JSON.stringify(meta), received: Buffer.alloc(0) })
      .run()
    return sid
  })
  const url = publicRequestUrl(c.req.url, c.req.header('x-forwarded-proto'))
  url.searchParams.set('upload_id', id)
  return c.body(null, 200, { location: url.toString() })
}

/**
 * Takes one chunk of a session (PUT, or POST as google-api-go-client sends it); returns the complete input, or the
 * resume-incomplete answer while bytes are missing.
 */
export async function continueSession(
  c: WorldContext,
  userId: string,
  maxBytes = GMAIL_MAX_UPLOAD_BYTES,
): Promise<MessageInput | Response> {
  const id = c.req.query('upload_id') ?? ''
  const read = () => {
    const session = c.var.world.db.select().from(uploads).where(eq(uploads.id, id)).get()
    if (!session || session.userId !== userId) throw notFound('Upload session not found.')
    return session
  }
  read()
  const chunk = Buffer.from(await c.req.arrayBuffer())
  // Read after the wait: a parallel request may have finished (deleted) the session meanwhile (decision 0392).
  const session = read()
  const header = c.req.header('content-range') ?? ''
  const status = /^bytes \*\/(\d+|\*)$/.exec(header)
  const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header)
  let received = session.received
  let total: number | undefined
  if (status) {
    total = status[1] === '*' ? undefined : Number(status[1])
  } else if (range) {
    if (Number(range[1]) !== received.length) throw badRequest('Chunk does not continue the upload.', 'badContent')
    received = Buffer.concat([received, chunk])
    total = range[3] === '*' ? undefined : Number(range[3])
  } else {
    received = Buffer.concat([received, chunk])
    total = received.length
  }
  checkUploadSize(received.length, total, maxBytes)
  if (total === undefined || received.length < total) {
    c.var.world.tx((db) => db.update(uploads).set({ received }).where(eq(uploads.id, id)).run())
    return resumeIncomplete(c, received.length)
  }
  c.var.world.tx((db) => db.delete(uploads).where(eq(uploads.id, id)).run())
  if (received.length === 0)
    throw badRequest(
      "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
      'invalidArgument',
    )
  return { raw: checkHeaderSize(received), ...uploadMeta(JSON.parse(session.metadata) as Record<string, unknown>) }
}
