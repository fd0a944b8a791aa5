import type { World } from '../core/world.ts'
import type { Json, ServiceState } from '../core/service.ts'
import { createHash } from 'node:crypto'
import { parseMime, bodyText, headerOf, htmlToText, partText, type MimePart } from './mime/parse.ts'
import { parseAddressList } from './mime/address.ts'
import { labelsOf } from './store/messages.ts'
import { attachments, drafts, labels, messages, settings, addressSettings } from './schema.ts'
import { listFilters } from './store/settings.ts'

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

export function dumpGmail(world: World): ServiceState {
  const db = world.db
  const out: Record<string, Record<string, Json>> = { messages: {}, labels: {}, drafts: {}, filters: {}, settings: {}, addresses: {} }
  for (const m of db.select().from(messages).orderBy(messages.userId, messages.id).all()) {
    const root = parseMime(m.raw)
    const files: Json[] = []
    const seen: string[] = []
    const walk = (p: MimePart) => {
      if (p.parts.length) p.parts.forEach(walk)
      else if (p.isAttachment) files.push({ filename: p.filename, mimeType: p.mimeType, size: p.body?.length ?? 0, sha256: sha256(p.body) })
      const readable = !p.parts.length && (p.mimeType.startsWith('text/') || /json|xml|csv/.test(p.mimeType))
      if (readable) seen.push(p.mimeType === 'text/html' ? htmlToText(partText(p)) : partText(p))
    }
    walk(root)
    const from = headerOf(root.headers, 'from') ?? ''
    out.messages![`${m.userId}/${m.id}`] = {
      userId: m.userId,
      id: m.id,
      threadId: m.threadId,
      messageId: m.messageIdHeader,
      inReplyTo: headerOf(root.headers, 'in-reply-to') ?? null,
      from: parseAddressList(from)[0] ?? '',
      fromName: from.replace(/<[^>]*>/, '').replace(/"/g, '').trim(),
      to: parseAddressList(headerOf(root.headers, 'to')),
      cc: parseAddressList(headerOf(root.headers, 'cc')),
      bcc: parseAddressList(headerOf(root.headers, 'bcc')),
      subject: m.subject,
      text: bodyText(root).slice(0, 4000),
      labelIds: labelsOf(db, m.userId, m.id),
      internalDate: new Date(m.internalDate).toISOString(),
      attachments: files,
      visibleText: seen.join('\n').slice(0, VISIBLE_MAX),
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
