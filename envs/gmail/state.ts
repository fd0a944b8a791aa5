import type { World } from '../core/world.ts'
import type { Json, ServiceState } from '../core/service.ts'
import { createHash } from 'node:crypto'
import {
  parseMime,
  bodyText,
  headEnd,
  headerOf,
  htmlReaderText,
  parseCopy,
  partText,
  shownAttributes,
  type MimePart,
  type ParsedMessage,
} from './mime/parse.ts'
import { addressesAndNames, parseAddressList } from './mime/address.ts'
import { dropFirstTag } from '../core/html-linear.ts'
import type Database from 'better-sqlite3'
import { labelOrder, type SeedParse } from './store/messages.ts'
import { stmt, type Db } from '../core/db.ts'
import { entityMemo, keptValue } from '../core/dump-memo.ts'
import { keptGroups, readRows, readTable, tableRead, type Rows, type TableRead } from '../core/dump-rows.ts'
import { noteChangedIds } from '../core/diff.ts'

/**
 * Gmail's view for oracles (version 1). Collections, keyed `<userId>/<id>`:
 * - messages: { userId, id, threadId, messageId (RFC 822 Message-ID), inReplyTo, references (the References header
 *   as written, or null: a reply may carry it alone, 0466), from, fromName, to[], cc[], bcc[],
 *   subject, text (plain body, ≤ 4000 chars), labelIds[], internalDate (ISO),
 *   attachments[{filename, mimeType, size, sha256, attachments? (an attached message's own files, 0459)}],
 *   visibleText (everything a reader can see: every plain and de-tagged HTML body part — inline elements joined,
 *   character references decoded, the text of comments and style/script elements kept (htmlReaderText, 0400), the
 *   links, image texts and tooltips of its tags (0437) — and the text of attached text files, of any part whose bytes
 *   are text and of attached messages (0437), untruncated up to 256 KiB — oracles judge this, never the plain part
 *   alone),
 *   headerText? (the To/Cc/Reply-To/Sender display names and other headers' values: headerTextOf, 0418) }
 * - labels: { userId, id, name, type }      - drafts: { userId, id, messageId }
 * - filters: { userId, id, criteria, action } - settings: `<userId>/<key>` → the settings document
 * - addresses: `<userId>/<kind>/<email>` → forwarding / sendAs / delegate entries
 */
const VISIBLE_MAX = 256 * 1024
const sha256 = (b: Buffer | null) =>
  createHash('sha256')
    .update(b ?? Buffer.alloc(0))
    .digest('hex')

/** What a message's entity takes from its RFC 822 source alone. */
type FromSource = {
  inReplyTo: Json
  references: Json
  from: Json
  fromName: Json
  to: Json
  cc: Json
  bcc: Json
  text: Json
  attachments: Json
  visibleText: Json
  headerText?: string
}

/** What FromSource takes from the part tree alone (never the top-level headers): the same for a copy's tree. */
type FromBody = { text: Json; attachments: Json; visibleText: Json }

function fromBody(root: MimePart): FromBody {
  const seen: string[] = []
  const visit = (p: MimePart) => (p.parts.length ? p.parts.forEach(visit) : read(p, seen, 0))
  visit(root)
  const files = filesOf(root, 0)
  return { text: bodyText(root).slice(0, 4000), attachments: files, visibleText: seen.join('\n').slice(0, VISIBLE_MAX) }
}

/**
 * The attached files of a part tree, in order. An attached message (`message/rfc822`, three levels deep, as `read`
 * goes) also lists its own attached files as `attachments` (docs/decisions/0459: a mail forwarded as an attachment
 * carries its files one level down); the field is absent on every other file.
 */
function filesOf(root: MimePart, depth: number): Json[] {
  const files: Json[] = []
  const walk = (p: MimePart) => {
    if (p.parts.length) return p.parts.forEach(walk)
    if (!p.isAttachment) return
    const file: Record<string, Json> = {
      filename: p.filename,
      mimeType: p.mimeType,
      size: p.body?.length ?? 0,
      sha256: sha256(p.body),
    }
    if (p.mimeType === 'message/rfc822' && p.body?.length && depth < 3)
      file.attachments = filesOf(parseMime(p.body), depth + 1)
    files.push(file)
  }
  walk(root)
  return files
}

/**
 * What a reader sees of one leaf part, pushed to `seen`: a text part's text (an HTML part's as htmlReaderText reads
 * it, and the attributes it shows: links, image text, tooltips; docs/decisions/0437); an attached message's subject,
 * sender and parts, read the same way (three levels deep); and any other part whose bytes are text (UTF-8, no control
 * characters but line breaks and tabs: a `notes.txt` sent as `application/octet-stream`, a "PDF" of plain text), which
 * opens as text whatever its type says (0437).
 */
function read(p: MimePart, seen: string[], depth: number) {
  if (p.mimeType.startsWith('text/') || /json|xml|csv/.test(p.mimeType)) {
    if (p.mimeType !== 'text/html') return void seen.push(partText(p))
    const html = partText(p)
    const attrs = shownAttributes(html)
    return void seen.push(htmlReaderText(html), ...(attrs ? [htmlReaderText(attrs)] : []))
  }
  if (!p.body?.length) return
  if (p.mimeType === 'message/rfc822' && depth < 3) {
    const inner = parseMime(p.body)
    seen.push(...['subject', 'from'].map((h) => headerOf(inner.headers, h) ?? ''))
    const walk = (q: MimePart): void => (q.parts.length ? q.parts.forEach(walk) : read(q, seen, depth + 1))
    return walk(inner)
  }
  const text = textOf(p.body)
  if (text !== undefined) seen.push(text)
}

/** How much of a part's bytes `textOf` reads: `visibleText` keeps 256 KiB of text, which this many bytes hold. */
const TEXT_BYTES = 4 * VISIBLE_MAX
/**
 * Bytes as text when they are text: valid UTF-8 without control characters other than tab and line breaks; only the
 * first `TEXT_BYTES` are read (a character cut at that end is left out, not taken for a fault).
 */
function textOf(bytes: Buffer): string | undefined {
  const head = bytes.length > TEXT_BYTES ? bytes.subarray(0, TEXT_BYTES) : bytes
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head !== bytes })
  } catch {
    return undefined
  }
  return /[\x00-\x08\x0e-\x1f\x7f]/.test(text) ? undefined : text
}

/**
 * Headers whose text a reader is not shown as written (transport, structure, dates, ids), and the address headers,
 * whose display names alone `headerText` takes (the addresses are `to`/`cc`; the From name is `fromName`).
 */
const UNSHOWN_HEADERS = new Set([
  'date',
  'message-id',
  'in-reply-to',
  'references',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'content-id',
  'subject',
  'from',
  'to',
  'cc',
  'bcc',
  'received',
  'return-path',
  'delivered-to',
  'reply-to',
  'sender',
])

/**
 * What a recipient reads in a message's header besides its subject, sender name and addresses (docs/decisions/0418):
 * the display names given with the To, Cc, Reply-To and Sender addresses ("pw-482113" <bob@…>) and the value of any
 * other header (X-Note: …, shown by "Show original"). Undefined when there is none, so the entity of a message
 * without any is as before.
 */
function headerTextOf(headers: MimePart['headers'], names: readonly string[]): string | undefined {
  const out = [...names]
  for (const h of headers) {
    const name = h.name.toLowerCase()
    if (name === 'reply-to' || name === 'sender') out.push(...addressesAndNames(h.value).names)
    else if (!UNSHOWN_HEADERS.has(name) && h.value.trim()) out.push(h.value)
  }
  return out.length ? out.join('\n') : undefined
}

function withHeaders(headers: MimePart['headers'], body: FromBody): FromSource {
  const from = headerOf(headers, 'from') ?? ''
  const to = addressesAndNames(headerOf(headers, 'to'))
  const cc = addressesAndNames(headerOf(headers, 'cc'))
  const headerText = headerTextOf(headers, [...to.names, ...cc.names])
  return {
    inReplyTo: headerOf(headers, 'in-reply-to') ?? null,
    references: headerOf(headers, 'references') ?? null,
    from: parseAddressList(from)[0] ?? '',
    // dropFirstTag is `.replace(/<[^>]*>/, '')` without its quadratic retries on a `<<<…` header (decision 0392).
    fromName: dropFirstTag(from).replace(/"/g, '').trim(),
    to: to.addresses,
    cc: cc.addresses,
    bcc: parseAddressList(headerOf(headers, 'bcc')),
    text: body.text,
    attachments: body.attachments,
    visibleText: body.visibleText,
    ...(headerText ? { headerText } : {}),
  }
}

/** A message's FromSource parsed from nothing but its bytes (the reference sourceOf's memo must equal). */
export function fromSource(raw: Buffer): FromSource {
  const root = parseMime(raw)
  return withHeaders(root.headers, fromBody(root))
}

/**
 * Parsed sources per connection (like the statement cache, envs/core/db.ts). A pure function of the bytes, so never
 * stale; bounded.
 * - A row kept from an earlier read (envs/core/dump-rows.ts) brings the very same `raw` Buffer again (a message
 *   whose labels changed): that Buffer finds its parse at once (blobs read from SQLite are new Buffers nobody
 *   writes to).
 * - The Gmail seed hands over every message it stored with its parse (keepSeedParses): the first dump of the world
 *   (a task's start state, on the connection that built it) finds a message there by its key, and uses it when the
 *   bytes are the very bytes stored, without parsing anything again.
 * - Otherwise by the bytes after the header block: most messages of a world share their body with others (a seed's
 *   background mail, delivered copies), and what FromSource takes from the part tree is the same for two messages
 *   whose body bytes and top-level content headers are (parseCopy checks both, as the Gmail seed does:
 *   docs/decisions/0341), so only the header block of such a message is parsed.
 */
type KnownBody = ParsedMessage & { derived: FromBody }
type Sources = {
  byBuffer: WeakMap<Buffer, FromSource>
  seeded?: Map<string, SeedParse>
  /** FromBody of the messages the seed read others as copies of (SeedParse.body). */
  seededBodies: WeakMap<ParsedMessage, FromBody>
  bodies: Map<string, KnownBody>
}
const sources = new WeakMap<Database.Database, Sources>()
const MAX_BODIES = 20_000

function sourcesOf(client: Database.Database): Sources {
  let memo = sources.get(client)
  if (!memo) sources.set(client, (memo = { byBuffer: new WeakMap(), seededBodies: new WeakMap(), bodies: new Map() }))
  return memo
}

/**
 * Keeps the messages a seed stored on this connection (CopyMemo.stored, by `<userId>/<id>`) for its next dump of
 * Gmail, which takes each one out as it reads it.
 */
export function keepSeedParses(client: Database.Database, stored: Map<string, SeedParse>): void {
  sourcesOf(client).seeded = stored
}

/** Drops what keepSeedParses kept (after a dump that read every message). */
function forgetSeedParses(client: Database.Database): void {
  const memo = sources.get(client)
  if (memo) memo.seeded = undefined
}

/** FromSource of a message's bytes, with its dump key (`<userId>/<id>`). */
export function sourceOf(client: Database.Database, raw: Buffer, key?: string): FromSource {
  const memo = sourcesOf(client)
  const seen = memo.byBuffer.get(raw)
  if (seen) return seen
  let parsed: FromSource | undefined
  const seeded = key === undefined ? undefined : memo.seeded?.get(key)
  if (seeded) {
    memo.seeded!.delete(key!)
    if (seeded.raw.equals(raw)) {
      let derived = memo.seededBodies.get(seeded.body)
      if (!derived) memo.seededBodies.set(seeded.body, (derived = fromBody(seeded.body.root)))
      parsed = withHeaders(seeded.root.headers, derived)
    }
  }
  parsed ??= fromBodies(memo, raw)
  memo.byBuffer.set(raw, parsed)
  return parsed
}

function fromBodies(memo: Sources, raw: Buffer): FromSource {
  const key = raw.toString('latin1', headEnd(raw))
  const known = memo.bodies.get(key)
  const copy = known && parseCopy(raw, known)
  if (known && copy) return withHeaders(copy.headers, known.derived)
  const root = parseMime(raw)
  const derived = fromBody(root)
  if (memo.bodies.size >= MAX_BODIES) memo.bodies.clear()
  memo.bodies.set(key, { raw, root, derived })
  return withHeaders(root.headers, derived)
}

/** A message row as read: user_id, id, thread_id, message_id_header, subject, internal_date, raw. */
type MessageRow = readonly [string, string, string, string, string, number, Buffer]

/** Rows with their entity key (`<userId>/<id>`), made once per row read (kept rows keep it). */
type Keyed<T> = { readonly key: string; readonly row: T }
const MESSAGES = tableRead(
  'gmail_messages',
  ['user_id', 'id', 'thread_id', 'message_id_header', 'subject', 'internal_date', 'raw'],
  ['user_id', 'id'],
  (v): Keyed<MessageRow> => ({ key: `${v[0]}/${v[1]}`, row: v as unknown as MessageRow }),
)
/** Every message's labels, each message's in the order they were added (as labelsOf reads them). */
const MESSAGE_LABELS = tableRead(
  'gmail_message_labels',
  ['user_id', 'message_id', 'label_id'],
  ['rowid'],
  (v): Keyed<string> => ({ key: `${v[0]}/${v[1]}`, row: v[2] as string }),
)
// Same rows in the same order as drizzle's `select().from(t)` (a scan of a rowid table).
const LABELS = tableRead('gmail_labels', ['user_id', 'id', 'name', 'type'], ['rowid'])
const DRAFTS = tableRead('gmail_drafts', ['user_id', 'id', 'message_id'], ['rowid'])
const SETTINGS = tableRead('gmail_settings', ['user_id', 'key', 'value'], ['rowid'])
const ADDRESSES = tableRead('gmail_address_settings', ['user_id', 'kind', 'email', 'value'], ['rowid'])
const rawRows = (db: Db, sql: string, ...params: unknown[]) =>
  stmt(db, sql)
    .raw()
    .all(...params) as unknown[][]

export function dumpGmail(world: World): ServiceState {
  const db = world.db
  const out: Record<string, Record<string, Json>> = {}
  // Each message's labels; a message none of whose label rows was written keeps the very list (dump-rows.ts).
  const labelRead = readRows(world, MESSAGE_LABELS)
  const labelIds = keptGroups(
    db,
    'gmail.labelIds',
    labelRead,
    (r) => r.key,
    (list: string[], r) => list.push(r.row),
  )
  // An entity is the same object as long as its row and its labels are (envs/core/dump-memo.ts): the source is not
  // hashed or parsed again, and the diff skips it. Unchanged rows and labels: the same collection object.
  const messageRead = readRows(world, MESSAGES)
  const messageRows = messageRead.rows
  out.messages = keptValue(db, 'gmail.messages', [messageRows, labelIds], () => {
    const memo = entityMemo(db, 'gmail.messages')
    const messages: Record<string, Json> = {}
    const base = baseOf(messageRead, labelRead)
    for (const { key, row } of messageRows) {
      // A key none of whose rows was written: the base's entity (equal to what the memo would give).
      const kept = base && !base.touched.has(key) ? base.collection[key] : undefined
      if (kept !== undefined) {
        messages[key] = kept
        continue
      }
      const ids = labelIds.get(key) ?? NO_LABELS
      messages[key] = memo.entity(key, [row, ids], () => messageEntity(db, key, row, ids))
    }
    if (base) noteChangedIds(messages, base.collection, base.touched)
    else keepBase(messageRead, labelRead, messages)
    forgetSeedParses(db.$client)
    return messages
  })
  const small = (
    name: string,
    read: TableRead<readonly unknown[]>,
    keyOf: (r: readonly unknown[]) => string,
    build: (r: readonly unknown[]) => Json,
  ) => {
    const rows = readTable(world, read)
    out[name] = keptValue(db, `gmail.${name}`, [rows], () => {
      const memo = entityMemo(db, `gmail.${name}`)
      const entities: Record<string, Json> = {}
      for (const r of rows) {
        const key = keyOf(r)
        entities[key] = memo.entity(key, r, () => build(r))
      }
      return entities
    })
  }
  small(
    'labels',
    LABELS,
    (r) => `${r[0]}/${r[1]}`,
    ([userId, id, name, type]) => ({ userId, id, name, type }) as Json,
  )
  small(
    'drafts',
    DRAFTS,
    (r) => `${r[0]}/${r[1]}`,
    ([userId, id, messageId]) => ({ userId, id, messageId }) as Json,
  )
  // Filters of the users that have labels (every mailbox has system labels), user by user as listFilters reads them.
  out.filters = {}
  const filters = entityMemo(db, 'gmail.filters')
  const users = new Set((stmt(db, 'SELECT user_id FROM gmail_labels').raw().all() as [string][]).map((r) => r[0]))
  for (const u of users) {
    for (const r of rawRows(db, 'SELECT id, criteria, action FROM gmail_filters WHERE user_id = ?', u)) {
      const key = `${u}/${r[0]}`
      r.push(u)
      out.filters[key] = filters.entity(key, r, () => ({
        userId: u,
        id: r[0] as string,
        criteria: JSON.parse(r[1] as string) as Json,
        action: JSON.parse(r[2] as string) as Json,
      }))
    }
  }
  small(
    'settings',
    SETTINGS,
    (r) => `${r[0]}/${r[1]}`,
    (r) => JSON.parse(r[2] as string) as Json,
  )
  small(
    'addresses',
    ADDRESSES,
    (r) => `${r[0]}/${r[1]}/${r[2]}`,
    (r) => JSON.parse(r[3] as string) as Json,
  )
  return { version: 1, entities: out }
}

const NO_LABELS: readonly string[] = Object.freeze([])

/**
 * The messages collection built from the message rows and label groups kept at hold() (envs/core/dump-rows.ts:
 * `since`), kept with that message read: later collections take its entities for the keys none of whose rows was
 * written since, and the diff tells them apart from it through the keys of the written rows, not by walking every
 * key (docs/decisions/0342, 0347).
 */
type MessagesBase = { labels: Map<string, unknown>; collection: Record<string, Json> }
const BASE = 'gmail.messages.base'

/** Keeps a collection built from the kept message rows and label groups as their base (see MessagesBase). */
function keepBase(messages: Rows<Keyed<MessageRow>>, labels: Rows<Keyed<string>>, collection: Record<string, Json>) {
  const ms = messages.since
  const ls = labels.since
  if (!ms || !ls || messages.rows !== ms.kept || labels.rows !== ls.kept) return
  const kept = ms.derived.get(BASE) as MessagesBase | undefined
  if (kept?.labels !== ls.derived) ms.derived.set(BASE, { labels: ls.derived, collection } satisfies MessagesBase)
}

/**
 * For rows written since hold(), with the base built from the very kept reads: the base collection and the keys of
 * the old and fresh message and label rows (`touched`). A key's entity is built from its message rows and its
 * label rows alone (memoised by their values), so a key none of whose rows was written has the very kept row and
 * (keptGroups) the very label list: an entity equal to the base's, which the build takes as it is. The diff is
 * told that only the touched keys may differ (envs/core/diff.ts noteChangedIds).
 */
function baseOf(
  messages: Rows<Keyed<MessageRow>>,
  labels: Rows<Keyed<string>>,
): { collection: Record<string, Json>; touched: ReadonlySet<string> } | undefined {
  const ms = messages.since
  const ls = labels.since
  if (!ms || !ls || (messages.rows === ms.kept && labels.rows === ls.kept)) return undefined
  const base = ms.derived.get(BASE) as MessagesBase | undefined
  if (base?.labels !== ls.derived) return undefined
  const touched = new Set<string>()
  for (const rows of [ms.old, ms.fresh, ls.old, ls.fresh] as readonly (readonly Keyed<unknown>[])[]) {
    for (const r of rows) touched.add(r.key)
  }
  return { collection: base.collection, touched }
}

function messageEntity(db: Db, key: string, m: MessageRow, labelIds: readonly string[]): Json {
  const [userId, id, threadId, messageId, subject, internalDate, raw] = m
  const s = sourceOf(db.$client, raw, key)
  return {
    userId,
    id,
    threadId,
    messageId,
    inReplyTo: s.inReplyTo,
    references: s.references,
    from: s.from,
    fromName: s.fromName,
    to: s.to,
    cc: s.cc,
    bcc: s.bcc,
    subject,
    text: s.text,
    labelIds: labelOrder(labelIds as string[]),
    internalDate: new Date(internalDate).toISOString(),
    attachments: s.attachments,
    visibleText: s.visibleText,
    ...(s.headerText ? { headerText: s.headerText } : {}),
  }
}
