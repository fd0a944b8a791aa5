import type { World } from '../core/world.ts'
import type { Json, ServiceState } from '../core/service.ts'
import { createHash } from 'node:crypto'
import { parseMime, bodyText, headerOf, htmlToText, partText, type MimePart } from './mime/parse.ts'
import { parseAddressList } from './mime/address.ts'
import type Database from 'better-sqlite3'
import { labelOrder } from './store/messages.ts'
import { drafts, labels, settings, addressSettings } from './schema.ts'
import { listFilters } from './store/settings.ts'
import { stmt } from '../core/db.ts'

/**
 * Gmail's view for oracles (version 1). Collections, keyed `<userId>/<id>`:
 * - messages: { userId, id, threadId, messageId (RFC 822 Message-ID), inReplyTo, from, fromName, to[], cc[], bcc[],
 *   subject, text (plain body, ≤ 4000 chars), labelIds[], internalDate (ISO),
 *   attachments[{filename, mimeType, size, sha256}],
 *   visibleText (everything a reader can see: every plain and de-tagged HTML body part and the text of attached
 *   text files, untruncated up to 256 KiB — oracles judge this, never the plain part alone) }
 * - labels: { userId, id, name, type }      - drafts: { userId, id, messageId }
 * - filters: { userId, id, criteria, action } - settings: `<userId>/<key>` → the settings document
 * - addresses: `<userId>/<kind>/<email>` → forwarding / sendAs / delegate entries
 */
const VISIBLE_MAX = 256 * 1024
const sha256 = (b: Buffer | null) => createHash('sha256').update(b ?? Buffer.alloc(0)).digest('hex')

/** What a message's entity takes from its RFC 822 source alone. */
type FromSource = {
  inReplyTo: Json; from: Json; fromName: Json; to: Json; cc: Json; bcc: Json; text: Json; attachments: Json
  visibleText: Json
}

function fromSource(raw: Buffer): FromSource {
  const root = parseMime(raw)
  const files: Json[] = []
  const seen: string[] = []
  const walk = (p: MimePart) => {
    if (p.parts.length) p.parts.forEach(walk)
    else if (p.isAttachment) {
      files.push({ filename: p.filename, mimeType: p.mimeType, size: p.body?.length ?? 0, sha256: sha256(p.body) })
    }
    const readable = !p.parts.length && (p.mimeType.startsWith('text/') || /json|xml|csv/.test(p.mimeType))
    if (readable) seen.push(p.mimeType === 'text/html' ? htmlToText(partText(p)) : partText(p))
  }
  walk(root)
  const from = headerOf(root.headers, 'from') ?? ''
  return {
    inReplyTo: headerOf(root.headers, 'in-reply-to') ?? null,
    from: parseAddressList(from)[0] ?? '',
    fromName: from.replace(/<[^>]*>/, '').replace(/"/g, '').trim(),
    to: parseAddressList(headerOf(root.headers, 'to')),
    cc: parseAddressList(headerOf(root.headers, 'cc')),
    bcc: parseAddressList(headerOf(root.headers, 'bcc')),
    text: bodyText(root).slice(0, 4000),
    attachments: files,
    visibleText: seen.join('\n').slice(0, VISIBLE_MAX),
  }
}

/**
 * Parsed sources by their SHA-1, per connection (like the statement cache, envs/core/db.ts): a pure function of
 * the bytes, so it can never be stale; it pays off when one connection is dumped many times (the gym's validation
 * reuses a connection for every episode of a task, and most messages are the template's). Bounded.
 */
const sources = new WeakMap<Database.Database, Map<string, FromSource>>()
const MAX_SOURCES = 20_000

function sourceOf(client: Database.Database, raw: Buffer): FromSource {
  let memo = sources.get(client)
  if (!memo) sources.set(client, (memo = new Map()))
  const key = createHash('sha1').update(raw).digest('base64')
  let parsed = memo.get(key)
  if (!parsed) {
    if (memo.size >= MAX_SOURCES) memo.clear()
    memo.set(key, (parsed = fromSource(raw)))
  }
  return parsed
}

type MessageRow = {
  user_id: string; id: string; thread_id: string; message_id_header: string; subject: string; internal_date: number
  raw: Buffer
}

export function dumpGmail(world: World): ServiceState {
  const db = world.db
  const out: Record<string, Record<string, Json>> = { messages: {}, labels: {}, drafts: {}, filters: {}, settings: {}, addresses: {} }
  // Every message's labels in one read, each message's in the order they were added (as labelsOf reads them).
  const labelIds = new Map<string, string[]>()
  const labelRows = stmt(db, '/* dump labels */ SELECT user_id, message_id, label_id FROM gmail_message_labels ORDER BY rowid')
    .raw()
    .all() as [string, string, string][]
  for (const [u, m, l] of labelRows) {
    const key = `${u}/${m}`
    const list = labelIds.get(key)
    if (list) list.push(l)
    else labelIds.set(key, [l])
  }
  const rows = stmt(
    db,
    'SELECT user_id, id, thread_id, message_id_header, subject, internal_date, raw FROM gmail_messages ORDER BY user_id, id',
  ).all() as MessageRow[]
  for (const m of rows) {
    const key = `${m.user_id}/${m.id}`
    const s = sourceOf(db.$client, m.raw)
    out.messages![key] = {
      userId: m.user_id,
      id: m.id,
      threadId: m.thread_id,
      messageId: m.message_id_header,
      inReplyTo: s.inReplyTo,
      from: s.from,
      fromName: s.fromName,
      to: s.to,
      cc: s.cc,
      bcc: s.bcc,
      subject: m.subject,
      text: s.text,
      labelIds: labelOrder(labelIds.get(key) ?? []),
      internalDate: new Date(m.internal_date).toISOString(),
      attachments: s.attachments,
      visibleText: s.visibleText,
    }
  }
  for (const l of db.select().from(labels).all()) out.labels![`${l.userId}/${l.id}`] = { userId: l.userId, id: l.id, name: l.name, type: l.type }
  for (const d of db.select().from(drafts).all()) out.drafts![`${d.userId}/${d.id}`] = { userId: d.userId, id: d.id, messageId: d.messageId }
  const users = new Set(db.select({ u: labels.userId }).from(labels).all().map((r) => r.u))
  for (const u of users) for (const f of listFilters(db, u)) out.filters![`${u}/${f.id}`] = { userId: u, id: f.id, criteria: f.criteria as Json, action: f.action as Json }
  for (const s of db.select().from(settings).all()) out.settings![`${s.userId}/${s.key}`] = JSON.parse(s.value) as Json
  for (const a of db.select().from(addressSettings).all()) out.addresses![`${a.userId}/${a.kind}/${a.email}`] = JSON.parse(a.value) as Json
  return { version: 1, entities: out }
}
