import type { MessageRow, LabelRow } from './schema.ts'
import type { WirePart } from './store/messages.ts'
import { base64urlPadded } from './mime/base64url.ts'
import { JsonText, type TextMemo } from '../core/json-text.ts'

export type Format = 'minimal' | 'full' | 'raw' | 'metadata'

/** Payloads kept as text up to this length (a large text body is rendered each time rather than held thrice). */
const KEPT_PAYLOAD_CHARS = 64 * 1024

/** The columns a rendering reads (`raw` only for format=raw): store/messages.ts findMessageView reads just these. */
export type MessageView = Pick<
  MessageRow,
  'id' | 'threadId' | 'internalDate' | 'historyId' | 'payload' | 'snippet' | 'size'
> & { raw?: Buffer }

/** A stored message as Gmail renders it in the requested format (key order as the real API). */
export function toMessage(
  row: MessageView,
  labelIds: string[],
  format: Format,
  metadataHeaders: string[] = [],
  /**
   * Only for a message that is the whole answer (messages.get): format=full's payload as a `JsonText` kept in this
   * memo by message id and stored payload text, so a message read again copies its payload's text instead of parsing
   * the stored JSON and stringifying it again (envs/core/json-text.ts). Callers that read the payload must omit it.
   */
  payloadTexts?: TextMemo,
) {
  const { id, threadId, snippet } = row
  if (format === 'raw') {
    const [raw, historyId, internalDate] = [base64urlPadded(row.raw!), String(row.historyId), String(row.internalDate)]
    return { id, threadId, labelIds, snippet, sizeEstimate: row.size, raw, historyId, internalDate }
  }
  // Each shape spelled out, no `{ ...base, … }`: see docs/decisions/0446 (a leading spread gives every object its own
  // hidden class in Node 20's V8, and every reader of it then misses its inline caches).
  if (format === 'full')
    return {
      id,
      threadId,
      labelIds,
      snippet,
      payload:
        payloadTexts && row.payload.length <= KEPT_PAYLOAD_CHARS
          ? new JsonText(row.id, [row.payload], () => JSON.parse(row.payload) as WirePart, payloadTexts)
          : (JSON.parse(row.payload) as WirePart),
      sizeEstimate: row.size,
      historyId: String(row.historyId),
      internalDate: String(row.internalDate),
    }
  if (format === 'metadata') {
    const payload = JSON.parse(row.payload) as WirePart
    const wanted = metadataHeaders.map((h) => h.toLowerCase())
    const headers = wanted.length
      ? payload.headers.filter((h) => wanted.includes(h.name.toLowerCase()))
      : payload.headers
    return {
      id,
      threadId,
      labelIds,
      snippet,
      payload: { mimeType: payload.mimeType, headers },
      sizeEstimate: row.size,
      historyId: String(row.historyId),
      internalDate: String(row.internalDate),
    }
  }
  return {
    id,
    threadId,
    labelIds,
    snippet,
    sizeEstimate: row.size,
    historyId: String(row.historyId),
    internalDate: String(row.internalDate),
  }
}

/** A label resource; counts are included where Gmail includes them (labels.get, create/update answers omit them). */
export function toLabel(
  row: LabelRow,
  counts?: { messagesTotal: number; messagesUnread: number; threadsTotal: number; threadsUnread: number },
) {
  const out: Record<string, unknown> = { id: row.id, name: row.name }
  if (row.messageListVisibility) out.messageListVisibility = row.messageListVisibility
  if (row.labelListVisibility) out.labelListVisibility = row.labelListVisibility
  if (row.type === 'system') out.type = 'system'
  else out.type = 'user'
  if (counts) Object.assign(out, counts)
  if (row.textColor && row.backgroundColor)
    out.color = { textColor: row.textColor, backgroundColor: row.backgroundColor }
  return out
}
