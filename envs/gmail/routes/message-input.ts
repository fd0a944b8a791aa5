import type { WorldContext } from '../../core/http.ts'
import { badRequest } from '../../core/errors/google.ts'
import { splitRelated } from '../../core/multipart.ts'

/** A message to store; `draftId` comes from Draft metadata (`{id, message: {threadId}}`) on draft uploads. */
export type MessageInput = { raw: Buffer; threadId?: string; labelIds?: string[]; draftId?: string }

/** threadId/labelIds from upload metadata, which is a Message (`{threadId}`) or a Draft (`{id, message}`). */
export function uploadMeta(meta: Record<string, unknown>): Omit<MessageInput, 'raw'> {
  const message = meta.message && typeof meta.message === 'object' ? (meta.message as Record<string, unknown>) : {}
  const threadId = meta.threadId ?? message.threadId
  const labelIds = meta.labelIds ?? message.labelIds
  return {
    threadId: typeof threadId === 'string' ? threadId : undefined,
    labelIds: Array.isArray(labelIds) ? labelIds.map(String) : undefined,
    draftId: typeof meta.id === 'string' ? meta.id : undefined,
  }
}

/**
 * Largest header section accepted (From: … up to the first empty line). Deviation: Gmail refuses oversized
 * headers at its SMTP edge with its own wording; here the API answers 400 before parsing them.
 */
export const MAX_HEADER_BYTES = 64 * 1024

/** Refuses a message whose header section is larger than MAX_HEADER_BYTES (e.g. 100,000 References ids). */
export function checkHeaderSize(raw: Buffer): Buffer {
  const window = raw.subarray(0, MAX_HEADER_BYTES + 4).toString('latin1')
  const end = /\r?\n\r?\n/.exec(window)?.index ?? (raw.length <= MAX_HEADER_BYTES ? raw.length : Infinity)
  if (end > MAX_HEADER_BYTES)
    throw badRequest(`Message header section exceeds ${MAX_HEADER_BYTES} bytes.`, 'invalidArgument')
  return raw
}

const MISSING = "'raw' RFC822 payload message string or uploading message via /upload/* URL required"

/** Decodes the `raw` field of a JSON Message body (base64url or base64). */
export function rawFromJson(body: { raw?: unknown; threadId?: unknown; labelIds?: unknown }): MessageInput {
  if (typeof body.raw !== 'string' || body.raw === '') throw badRequest(MISSING, 'invalidArgument')
  if (!/^[A-Za-z0-9+/_=\s-]*$/.test(body.raw))
    throw badRequest('Invalid value for ByteString: ' + body.raw.slice(0, 40), 'invalidArgument')
  const raw = Buffer.from(body.raw.replace(/\s+/g, ''), 'base64url')
  if (raw.length === 0) throw badRequest(MISSING, 'invalidArgument')
  return {
    raw: checkHeaderSize(raw),
    threadId: typeof body.threadId === 'string' ? body.threadId : undefined,
    labelIds: Array.isArray(body.labelIds) ? body.labelIds.map(String) : undefined,
  }
}

/**
 * A message from an `/upload/` request: `uploadType=media` (the body is the RFC 822 message) or
 * `uploadType=multipart` (multipart/related: JSON metadata, then the message).
 */
export async function rawFromUpload(c: WorldContext): Promise<MessageInput> {
  const uploadType = c.req.query('uploadType') ?? 'media'
  const type = c.req.header('content-type') ?? ''
  const bytes = Buffer.from(await c.req.arrayBuffer())
  if (uploadType === 'media' || !/^multipart\//i.test(type)) {
    if (bytes.length === 0) throw badRequest(MISSING, 'invalidArgument')
    return { raw: checkHeaderSize(bytes) }
  }
  if (uploadType !== 'multipart') throw badRequest(`Invalid upload type: ${uploadType}`, 'invalidArgument')
  const { meta, data: raw } = splitRelated(type, bytes)
  if (raw.length === 0) throw badRequest(MISSING, 'invalidArgument')
  return { raw: checkHeaderSize(raw), ...uploadMeta(meta) }
}
