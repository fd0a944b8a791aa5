import { getTableColumns } from 'drizzle-orm'
import { insertRow, selectRows, stmt, type Db } from '../../core/db.ts'
import { gmailId, urlSafeId } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import { attachments, history, messageLabels, messages, type MessageRow } from '../schema.ts'
import type { MessageView } from '../map.ts'
import { bodyText, headEnd, parseCopy, parseMime, partText, type MimePart, type ParsedMessage } from '../mime/parse.ts'
import { addressSearchText, firstAddress } from '../mime/address.ts'
import { base64urlPadded } from '../mime/base64url.ts'
import { wordsOf } from '../query/words.ts'
import { ensureMailbox, nextHistoryId } from './mailbox.ts'

/** The Gmail wire part tree kept with each message (attachment bytes live in gmail_attachments). */
export type WirePart = {
  partId: string
  mimeType: string
  filename: string
  headers: { name: string; value: string }[]
  body: { size: number; data?: string; attachmentId?: string }
  parts?: WirePart[]
}

export type NewMessage = { raw: Buffer; labelIds: string[]; threadId?: string; internalDate?: number; id?: string }

const normaliseSubject = (s: string) =>
  s
    .replace(/^\s*((re|fwd?|aw|sv)\s*:\s*)+/i, '')
    .trim()
    .toLowerCase()

/** Gmail's snippet: the start of the text body, whitespace collapsed, HTML-escaped. */
export function snippetOf(text: string): string {
  const flat = snippetText(text)
  if (!/[&<>"']/.test(flat)) return flat
  return flat
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** How much of a long text the snippet collapses first (each character of the snippet takes one or more). */
const SNIPPET_SCAN = 1024

/**
 * `text.replace(/\s+/g, ' ').trim().slice(0, 200)`. Collapsing a prefix gives a prefix of the collapsed whole, and
 * trimming its end takes at most the one space a run left: past 201 characters, the first 200 are the same.
 */
function snippetText(text: string): string {
  if (text.length > SNIPPET_SCAN) {
    const head = text.slice(0, SNIPPET_SCAN).replace(/\s+/g, ' ').trimStart()
    if (head.length > 201) return head.slice(0, 200)
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 200)
}

/** Converts a parsed MIME tree to Gmail's part tree, storing attachment bytes as it goes. */
function toWire(db: Db, userId: string, messageId: string, part: MimePart, partId: string, files: string[]): WirePart {
  const wire: WirePart = {
    partId,
    mimeType: part.mimeType,
    filename: part.filename,
    headers: part.headers,
    body: { size: 0 },
  }
  if (part.parts.length > 0) {
    wire.parts = part.parts.map((p, i) =>
      toWire(db, userId, messageId, p, partId === '' ? String(i) : `${partId}.${i}`, files),
    )
    return wire
  }
  const data = part.body ?? Buffer.alloc(0)
  if (part.isAttachment) {
    const id = `ANGjdJ${urlSafeId(db, 'gmail.attachment', 90)}`
    insertRow(db, attachments, { userId, id, messageId, data })
    files.push(part.filename)
    wire.body = { attachmentId: id, size: data.length }
  } else {
    wire.body = data.length > 0 ? { size: data.length, data: base64urlPadded(data) } : { size: 0 }
  }
  return wire
}

/** How many of the most recent References ids threading looks at. */
const THREAD_REFS = 20

/**
 * Resolves the thread of a new message: an explicit id of the mailbox whose subject matches (Gmail starts a new
 * thread when the Subject differs), else In-Reply-To/References with a matching subject, else new.
 */
function resolveThread(
  db: Db,
  userId: string,
  h: (name: string) => string,
  explicit: string | undefined,
  ownId: string,
): string {
  const subject = normaliseSubject(h('subject'))
  if (explicit) {
    const inThread = stmt(db, 'SELECT subject FROM gmail_messages WHERE user_id = ? AND thread_id = ?').all(
      userId,
      explicit,
    ) as { subject: string }[]
    if (inThread.some((m) => normaliseSubject(m.subject) === subject)) return explicit
  }
  // Deviation: only In-Reply-To and the last THREAD_REFS ids of References are looked up (RFC 5322 lets clients
  // trim References to its recent end), so a header of 100,000 ids costs 21 lookups, not 100,000.
  const inReplyTo =
    h('in-reply-to')
      .slice(0, 2048)
      .match(/<[^>]{1,998}>/g) ?? []
  const references =
    h('references')
      .slice(-THREAD_REFS * 256)
      .match(/<[^>]{1,998}>/g) ?? []
  const refs = [...inReplyTo.slice(0, 1), ...references.slice(-THREAD_REFS)]
  // A repeated id (In-Reply-To is usually the last of References too) would find the same first row again.
  for (const ref of new Set(refs.reverse())) {
    const parent = stmt(db, PARENT_SQL).get(userId, ref) as { thread_id: string; subject: string } | undefined
    if (parent && normaliseSubject(parent.subject) === subject) return parent.thread_id
  }
  return ownId
}

/** The first message carrying a Message-ID (msgid index order, as a full-row read of the same WHERE gives). */
const PARENT_SQL = 'SELECT thread_id, subject FROM gmail_messages WHERE user_id = ? AND message_id_header = ?'

/** Each header name (lower-cased) with its first value: what `headerOf` finds, read in one pass. */
function firstHeaders(headers: MimePart['headers']): Map<string, string> {
  const first = new Map<string, string>()
  for (const { name, value } of headers) {
    const key = name.toLowerCase()
    if (!first.has(key)) first.set(key, value)
  }
  return first
}

/**
 * What storing messages derived, kept for the copies of a message stored after it in the same call: delivery gives
 * each recipient the sender's bytes with other top-level headers (Delivered-To, no Bcc). It holds the last message
 * parsed (parseCopy checks that a copy's body and content headers are the same bytes and values) and the words and
 * address texts made since, each by the exact input it was made from, so a copy that differs gets its own.
 * `acrossMessages` (a seed storing many messages, most with a body another one has): every message parsed is kept
 * by its body bytes, so a later message with that body is read as a copy of it (parseCopy's checks again), and the
 * words and address texts of every message are kept.
 */
export class CopyMemo {
  last?: StoredParse
  readonly words = new Map<string, string>()
  readonly addresses = new Map<string, string>()
  /** The From header's first address (`from_email`), by the header. */
  readonly senders = new Map<string, string>()
  /** Each search text part's words (`undefined`: the part is not ASCII), by the part (searchWords). */
  readonly partWords = new Map<string, string | undefined>()
  /** With `acrossMessages`: the messages parsed, by the latin1 text of the bytes after their header block. */
  readonly bodies?: Map<string, StoredParse>
  /** With `acrossMessages`: every message stored, by `<userId>/<id>`, with its parse (for Gmail's dump). */
  readonly stored?: Map<string, SeedParse>

  constructor(opts: { acrossMessages?: boolean } = {}) {
    if (opts.acrossMessages) {
      this.bodies = new Map()
      this.stored = new Map()
    }
  }
}

type StoredParse = ParsedMessage & { text: string; snippet: string }

/**
 * A message a seed stored: its bytes, `parseMime(raw)`'s tree (a copy's: the kept tree with its own headers), and
 * the parsed message whose tree its own is but for the top-level headers (itself, or the one it was read as a copy
 * of): what Gmail's dump derives from the part tree alone is that one's (envs/gmail/state.ts).
 */
export type SeedParse = { raw: Buffer; root: MimePart; body: ParsedMessage }

/** The part tree, text body and snippet of a message: a kept message's for a copy of it (`body`: that message). */
function parseStored(
  raw: Buffer,
  memo: CopyMemo | undefined,
): {
  root: MimePart
  text: string
  snippet: string
  body: ParsedMessage
} {
  const last = memo?.last
  const copy = last && parseCopy(raw, last)
  // bodyText and snippetOf read the part tree only, never the top-level headers, which are all a copy changes.
  if (last && copy) return { root: copy, text: last.text, snippet: last.snippet, body: last }
  const bodies = memo?.bodies
  const key = bodies && raw.toString('latin1', headEnd(raw))
  const known = key === undefined ? undefined : bodies!.get(key)
  const same = known && parseCopy(raw, known)
  if (known && same) {
    memo!.last = known
    return { root: same, text: known.text, snippet: known.snippet, body: known }
  }
  const root = parseMime(raw)
  const text = bodyText(root)
  const parsed: StoredParse = { raw, root, text, snippet: snippetOf(text) }
  if (memo) {
    memo.last = parsed
    if (key !== undefined) bodies!.set(key, parsed)
    else {
      memo.words.clear()
      memo.addresses.clear()
      memo.senders.clear()
      memo.partWords.clear()
    }
  }
  return { root, text, snippet: parsed.snippet, body: parsed }
}

/** `make(input)`, kept in `texts` (when there is a memo) for the same input. */
function kept<T>(texts: Map<string, T> | undefined, input: string, make: (input: string) => T): T {
  if (!texts) return make(input)
  let out = texts.get(input)
  if (out === undefined && !texts.has(input)) texts.set(input, (out = make(input)))
  return out as T
}

/**
 * `wordsOf(parts.join('\n'))`, from each part's words kept in the memo: for ASCII parts the words of the join are
 * the parts' words in order (the newline is a separator like any other run of non-alphanumerics). A part that is
 * not ASCII (NFKC and case mapping might look across the newline) sends the whole join through wordsOf.
 */
function searchWords(parts: string[], memo: CopyMemo | undefined): string {
  if (!memo) return wordsOf(parts.join('\n'))
  let out = ''
  for (const part of parts) {
    const words = kept(memo.partWords, part, asciiWords)
    if (words === undefined) return kept(memo.words, parts.join('\n'), wordsOf)
    // A part's words are ' ' (none) or ' w1 … wn ': each adds its words after one space.
    if (words !== ' ') out += words.slice(0, -1)
  }
  return out === '' ? ' ' : `${out} `
}

const NON_ASCII = /[^\x00-\x7f]/
const asciiWords = (part: string) => (NON_ASCII.test(part) ? undefined : wordsOf(part))

/**
 * How a message is stored: `mailboxExists` when the caller ensured the mailbox in this request (mailboxOf), and a
 * `memo` shared by the copies of one message (delivery).
 */
export type StoreOptions = { mailboxExists?: boolean; memo?: CopyMemo }

/** The Date header's time, else the world clock's (a message stored without an internal date). */
function dateOf(header: string, db: Db): number {
  const ms = Date.parse(header)
  return Number.isNaN(ms) ? nowMs(db) : ms
}

/** Stores a message in a mailbox with its labels, attachments and a messageAdded history record. */
export function insertMessage(db: Db, userId: string, m: NewMessage, opts: StoreOptions = {}): MessageRow {
  if (!opts.mailboxExists) ensureMailbox(db, userId)
  const { root, text, snippet, body } = parseStored(m.raw, opts.memo)
  const first = firstHeaders(root.headers)
  const h = (name: string) => first.get(name) ?? ''
  const id = m.id ?? gmailId(db, 'gmail.message', m.internalDate)
  opts.memo?.stored?.set(`${userId}/${id}`, { raw: m.raw, root, body })
  const threadId = resolveThread(db, userId, h, m.threadId, id)
  const files: string[] = []
  const payload = toWire(db, userId, id, root, '', files)
  const historyId = nextHistoryId(db, userId)
  const words = (input: string) => kept(opts.memo?.words, input, wordsOf)
  const addresses = (input: string) => kept(opts.memo?.addresses, input, addressSearchText)
  const row: MessageRow = {
    userId,
    id,
    threadId,
    internalDate: m.internalDate ?? dateOf(h('date'), db),
    historyId,
    raw: m.raw,
    payload: JSON.stringify(payload),
    snippet,
    subject: h('subject'),
    fromAddr: h('from').toLowerCase(),
    fromEmail: kept(opts.memo?.senders, h('from'), firstAddress),
    toAddrs: addresses(h('to')),
    ccAddrs: addresses(h('cc')),
    bccAddrs: addresses(h('bcc')),
    deliveredTo: h('delivered-to').toLowerCase(),
    messageIdHeader: h('message-id'),
    listId: h('list-id').toLowerCase(),
    filenames: files.join('\n').toLowerCase(),
    hasAttachment: files.length > 0,
    searchText: searchWords([h('subject'), h('from'), h('to'), h('cc'), text, files.join(' ')], opts.memo),
    subjectWords: words(h('subject')),
    size: m.raw.length,
  }
  insertRow(db, messages, row)
  const labelIds = [...new Set(m.labelIds)]
  for (const labelId of labelIds) insertRow(db, messageLabels, { userId, messageId: id, labelId })
  insertRow(db, history, {
    userId,
    id: historyId,
    type: 'messageAdded',
    messageId: id,
    threadId,
    messageLabelIds: JSON.stringify(labelIds),
    changedLabelIds: '[]',
  })
  return row
}

const MESSAGE_COLUMNS = Object.entries(getTableColumns(messages))
  .map(([key, col]) => `"${col.name}" AS "${key}"`)
  .join(', ')

export function findMessage(db: Db, userId: string, id: string): MessageRow | undefined {
  const row = stmt(db, `SELECT ${MESSAGE_COLUMNS} FROM gmail_messages WHERE user_id = ? AND id = ?`).get(userId, id) as
    (Omit<MessageRow, 'hasAttachment'> & { hasAttachment: number }) | undefined
  return row && { ...row, hasAttachment: Boolean(row.hasAttachment) }
}

const VIEW_COLUMNS =
  'id, thread_id AS threadId, internal_date AS internalDate, history_id AS historyId, payload, ' + 'snippet, size'

/** The columns messages.get renders, with the raw bytes only when `withRaw` (format=raw). */
export function findMessageView(db: Db, userId: string, id: string, withRaw: boolean): MessageView | undefined {
  const columns = withRaw ? `${VIEW_COLUMNS}, raw` : VIEW_COLUMNS
  return stmt(db, `SELECT ${columns} FROM gmail_messages WHERE user_id = ? AND id = ?`).get(userId, id) as
    MessageView | undefined
}

export function threadMessages(db: Db, userId: string, threadId: string): MessageRow[] {
  return selectRows(db, messages, { userId, threadId }, { orderBy: ['internalDate', 'id'] })
}

/** Label ids of a message in Gmail's order (UNREAD and STARRED first, then the rest as stored). */
export function labelsOf(db: Db, userId: string, messageId: string): string[] {
  return labelOrder(storedLabels(db, userId, messageId))
}

/** A message's label ids in the order they were added (rowid order). */
function storedLabels(db: Db, userId: string, messageId: string): string[] {
  const sql = 'SELECT label_id FROM gmail_message_labels WHERE user_id = ? AND message_id = ? ORDER BY rowid'
  return stmt(db, sql).pluck().all(userId, messageId) as string[]
}

/** A message's id and thread, without reading its bytes; undefined when the mailbox has no such message. */
export function findMessageRef(db: Db, userId: string, id: string): { id: string; threadId: string } | undefined {
  const threadId = stmt(db, 'SELECT thread_id FROM gmail_messages WHERE user_id = ? AND id = ?').pluck().get(userId, id)
  return threadId === undefined ? undefined : { id, threadId: threadId as string }
}

/** A message's label ids as the API lists them: UNREAD, STARRED, IMPORTANT first, the others as added. */
export function labelOrder(ids: readonly string[]): string[] {
  const first = ['UNREAD', 'STARRED', 'IMPORTANT'].filter((l) => ids.includes(l))
  return [...first, ...ids.filter((l) => !first.includes(l))]
}

const DELETE_LABEL = 'DELETE FROM gmail_message_labels WHERE user_id = ? AND message_id = ? AND label_id = ?'

/** What one message's label change adds and removes, given its stored label ids. */
export function labelChange(stored: readonly string[], add: readonly string[], remove: readonly string[]) {
  const before = new Set(stored)
  const added = [...new Set(add)].filter((l) => !before.has(l) && !remove.includes(l))
  const removed = [...new Set(remove)].filter((l) => before.has(l))
  return { added, removed }
}

/**
 * Adds and removes labels, recording labelAdded / labelRemoved history. Returns the new label set.
 * The message must exist (its mailbox then does too: insertMessage made it). The new set is the stored order
 * less the removed ids plus the added ones: a new row's rowid is one past the table's largest, so it sorts last.
 * `threadId`, when the caller has read it, saves reading it again; so does `stored` for the stored label ids (in
 * rowid order, as `insertMessage` wrote them for a message it has just stored).
 */
export function modifyLabels(
  db: Db,
  userId: string,
  messageId: string,
  add: readonly string[],
  remove: readonly string[],
  threadId?: string,
  stored: readonly string[] = storedLabels(db, userId, messageId),
): string[] {
  const { added, removed } = labelChange(stored, add, remove)
  if (added.length === 0 && removed.length === 0) return labelOrder(stored)
  for (const labelId of removed) stmt(db, DELETE_LABEL).run(userId, messageId, labelId)
  for (const labelId of added) insertRow(db, messageLabels, { userId, messageId, labelId })
  const after = labelOrder([...stored.filter((l) => !removed.includes(l)), ...added])
  const thread = threadId ?? findMessageRef(db, userId, messageId)!.threadId
  const historyId = nextHistoryId(db, userId)
  stmt(db, 'UPDATE gmail_messages SET history_id = ? WHERE user_id = ? AND id = ?').run(historyId, userId, messageId)
  const messageLabelIds = JSON.stringify(after)
  // One literal per record (no `{ ...record, … }`, which took a hidden class of its own each: docs/decisions/0446).
  const changed = (type: 'labelAdded' | 'labelRemoved', ids: string[]) => ({
    userId,
    id: historyId,
    messageId,
    threadId: thread,
    messageLabelIds,
    type,
    changedLabelIds: JSON.stringify(ids),
  })
  if (added.length) insertRow(db, history, changed('labelAdded', added))
  if (removed.length) insertRow(db, history, changed('labelRemoved', removed))
  return after
}

/** Deletes a message for good (attachments, labels, drafts pointing at it), recording messageDeleted. */
export function deleteMessage(db: Db, userId: string, messageId: string): void {
  const row = findMessageRef(db, userId, messageId)
  if (!row) return
  const labelIds = labelsOf(db, userId, messageId)
  stmt(db, 'DELETE FROM gmail_message_labels WHERE user_id = ? AND message_id = ?').run(userId, messageId)
  stmt(db, 'DELETE FROM gmail_attachments WHERE user_id = ? AND message_id = ?').run(userId, messageId)
  stmt(db, 'DELETE FROM gmail_messages WHERE user_id = ? AND id = ?').run(userId, messageId)
  const historyId = nextHistoryId(db, userId)
  insertRow(db, history, {
    userId,
    id: historyId,
    type: 'messageDeleted',
    messageId,
    threadId: row.threadId,
    messageLabelIds: JSON.stringify(labelIds),
    changedLabelIds: '[]',
  })
}

export function findAttachment(db: Db, userId: string, messageId: string, id: string) {
  const sql =
    'SELECT user_id AS userId, id, message_id AS messageId, data FROM gmail_attachments ' +
    'WHERE user_id = ? AND message_id = ? AND id = ?'
  return stmt(db, sql).get(userId, messageId, id) as typeof attachments.$inferSelect | undefined
}

/** Plain text of a message (for state dumps and filters). */
export function messageText(row: MessageRow): string {
  return bodyText(parseMime(row.raw))
}

export { partText }
