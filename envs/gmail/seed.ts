import { z } from 'zod'
import type { World } from '../core/world.ts'
import type { SeedContext } from '../core/service.ts'
import { SeedTime } from '../core/seed-types.ts'
import { nextCounter, hexId } from '../core/ids.ts'
import { insertRow } from '../core/db.ts'
import { buildMessage, type Address } from './mime/build.ts'
import { CopyMemo, insertMessage, modifyLabels } from './store/messages.ts'
import { ensureMailbox, labelIdByName, labelNameKey } from './store/mailbox.ts'
import { labels, filters } from './schema.ts'
import { putAddressSetting, setSetting } from './store/settings.ts'
import { newMessageIdHeader, withDeliveredTo } from './deliver.ts'
import { keepSeedParses } from './state.ts'

const Attachment = z.object({
  filename: z.string().min(1),
  mimeType: z.string().default('application/octet-stream'),
  text: z.string().optional(),
  base64: z.string().optional(),
})

export const GmailSeed = z
  .object({
    labels: z
      .array(
        z.object({
          user: z.string(),
          name: z.string().min(1),
          color: z.object({ textColor: z.string(), backgroundColor: z.string() }).optional(),
        }),
      )
      .default([]),
    messages: z
      .array(
        z.object({
          /** A world user (id or email), or an outside address like `"Priya Raman <priya@acme.test>"`. */
          from: z.string(),
          to: z.array(z.string()).default([]),
          cc: z.array(z.string()).default([]),
          bcc: z.array(z.string()).default([]),
          subject: z.string(),
          text: z.string(),
          html: z.string().optional(),
          at: SeedTime,
          /** Messages sharing a thread key form one conversation (each reply references the previous one). */
          thread: z.string().optional(),
          /** Label names or ids added to every world-user recipient's copy. */
          labels: z.array(z.string()).default([]),
          unread: z.boolean().default(true),
          starred: z.boolean().default(false),
          attachments: z.array(Attachment).default([]),
          headers: z.record(z.string(), z.string()).optional(),
        }),
      )
      .default([]),
    filters: z
      .array(
        z.object({
          user: z.string(),
          criteria: z.record(z.string(), z.unknown()),
          action: z.record(z.string(), z.unknown()),
        }),
      )
      .default([]),
    vacation: z
      .array(
        z.object({
          user: z.string(),
          responseSubject: z.string().default(''),
          responseBodyPlainText: z.string(),
          restrictToDomain: z.boolean().default(false),
        }),
      )
      .default([]),
  })
  .strict()
  .default({ labels: [], messages: [], filters: [], vacation: [] })
export type GmailSeed = z.output<typeof GmailSeed>

/** Writes mailboxes, labels, messages (as delivered mail, with SENT copies), filters and vacation replies. */
export function seedGmail(world: World, seed: GmailSeed, ctx: SeedContext): void {
  const db = world.db
  for (const u of ctx.users) {
    ensureMailbox(db, u.id)
    putAddressSetting(db, u.id, 'sendAs', u.email, {
      sendAsEmail: u.email,
      displayName: u.name,
      replyToAddress: '',
      signature: '',
      isPrimary: true,
      isDefault: true,
    })
  }
  seed.labels.forEach((l, i) => {
    const user = ctx.user(l.user, `gmail.labels[${i}].user`)
    insertRow(db, labels, {
      userId: user.id,
      id: `Label_${nextCounter(db, `gmail.label.${user.id}`)}`,
      name: l.name,
      nameKey: labelNameKey(l.name),
      type: 'user',
      messageListVisibility: 'show',
      labelListVisibility: 'labelShow',
      textColor: l.color?.textColor ?? null,
      backgroundColor: l.color?.backgroundColor ?? null,
    })
  })
  // Every label exists by now (messages add none): a name resolves to one id per user for the rest of the seed.
  const labelIds = new Map<string, string>()
  const labelIdOf = (userId: string, name: string) => {
    const key = `${userId}\u0000${name}`
    let id = labelIds.get(key)
    if (id === undefined) labelIds.set(key, (id = labelIdByName(db, userId, name) ?? name))
    return id
  }
  // World users by lower-case address (the first one, as a search in seed order finds).
  const userByEmail = new Map<string, (typeof ctx.users)[number]>()
  for (const u of ctx.users) if (!userByEmail.has(u.email.toLowerCase())) userByEmail.set(u.email.toLowerCase(), u)
  const lastInThread = new Map<string, { messageId: string; references: string }>()
  const toAddress = (ref: string, path: string): Address => {
    const m = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(ref)
    if (m) return { name: m[1] || undefined, email: m[2]!.toLowerCase() }
    if (ref.includes('@') && !userByEmail.has(ref.toLowerCase())) return { email: ref.toLowerCase() }
    const u = ctx.user(ref, path)
    return { name: u.name, email: u.email }
  }
  // Messages are built in seed order (threading follows it) but stored oldest first, so historyIds follow
  // internalDate as in a mailbox that received them over time (sync clients such as lieer rely on it).
  const inserts: { at: number; seq: number; run: () => void }[] = []
  const later = (at: number, run: () => void) => inserts.push({ at, seq: inserts.length, run })
  // A message's copies (sender's, recipients') are stored one after another: they share what parsing derived.
  const memo = new CopyMemo({ acrossMessages: true })
  seed.messages.forEach((m, i) => {
    const path = `gmail.messages[${i}]`
    const from = toAddress(m.from, `${path}.from`)
    const to = m.to.map((r, j) => toAddress(r, `${path}.to[${j}]`))
    const cc = m.cc.map((r, j) => toAddress(r, `${path}.cc[${j}]`))
    const bcc = m.bcc.map((r, j) => toAddress(r, `${path}.bcc[${j}]`))
    const at = ctx.time(m.at)
    const messageId = newMessageIdHeader(db)
    const prev = m.thread ? lastInThread.get(m.thread) : undefined
    const raw = buildMessage({
      from,
      to,
      cc,
      bcc,
      subject: m.subject,
      text: m.text,
      html: m.html,
      date: new Date(at),
      messageId,
      inReplyTo: prev?.messageId,
      references: prev ? `${prev.references} ${prev.messageId}`.trim() : undefined,
      headers: m.headers,
      attachments: m.attachments.map((a) => ({
        filename: a.filename,
        mimeType: a.mimeType,
        data: a.base64 ? Buffer.from(a.base64, 'base64') : Buffer.from(a.text ?? '', 'utf8'),
      })),
    })
    if (m.thread)
      lastInThread.set(m.thread, { messageId, references: prev ? `${prev.references} ${prev.messageId}`.trim() : '' })
    const sender = userByEmail.get(from.email)
    const recipients = [...to, ...cc, ...bcc].map((a) => a.email)
    if (sender) {
      const labelIds = recipients.includes(sender.email.toLowerCase()) ? ['SENT', 'INBOX'] : ['SENT']
      later(at, () => insertMessage(db, sender.id, { raw, labelIds, internalDate: at }, { memo }))
    }
    const delivered = bcc.length
      ? buildMessage({
          from,
          to,
          cc,
          subject: m.subject,
          text: m.text,
          html: m.html,
          date: new Date(at),
          messageId,
          inReplyTo: prev?.messageId,
          headers: m.headers,
          attachments: m.attachments.map((a) => ({
            filename: a.filename,
            mimeType: a.mimeType,
            data: a.base64 ? Buffer.from(a.base64, 'base64') : Buffer.from(a.text ?? '', 'utf8'),
          })),
        })
      : raw
    for (const email of new Set(recipients)) {
      const user = userByEmail.get(email)
      if (!user || user.id === sender?.id) continue
      const base = ['CATEGORY_PERSONAL', 'INBOX', ...(m.unread ? ['UNREAD'] : []), ...(m.starred ? ['STARRED'] : [])]
      later(at, () => {
        const copy = withDeliveredTo(delivered, user.email)
        const row = insertMessage(db, user.id, { raw: copy, labelIds: base, internalDate: at }, { memo })
        const extra = m.labels.map((name) => labelIdOf(user.id, name)).filter((id) => id !== undefined)
        const hide = extra.includes('TRASH') || extra.includes('SPAM') ? ['INBOX'] : []
        // insertMessage stored `base` (no repeats) as the copy's labels, in that order.
        if (extra.length) modifyLabels(db, user.id, row.id, extra, hide, row.threadId, base)
      })
    }
  })
  inserts.sort((x, y) => x.at - y.at || x.seq - y.seq).forEach((op) => op.run())
  // The first dump of the world (a task's start state) reads these messages' bodies from the parses made here.
  keepSeedParses(world.sqlite, memo.stored!)
  seed.filters.forEach((f, i) => {
    const user = ctx.user(f.user, `gmail.filters[${i}].user`)
    db.insert(filters)
      .values({
        userId: user.id,
        id: `ANe1Bm${hexId(db, 'gmail.filter', 24)}`,
        criteria: JSON.stringify(f.criteria),
        action: JSON.stringify(f.action),
      })
      .run()
  })
  seed.vacation.forEach((v, i) => {
    const user = ctx.user(v.user, `gmail.vacation[${i}].user`)
    setSetting(db, user.id, 'vacation', {
      enableAutoReply: true,
      responseSubject: v.responseSubject,
      responseBodyPlainText: v.responseBodyPlainText,
      restrictToContacts: false,
      restrictToDomain: v.restrictToDomain,
    })
  })
}
