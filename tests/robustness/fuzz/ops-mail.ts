import type { gmail_v1 } from 'googleapis'
import { rfc822 } from '../../gmail/fixtures.ts'
import type { Fuzz, Op } from './engine.ts'

// Gmail between two mailboxes (Ann's is the `gmail` model, Ben's `mail.ben`): mail sent from one to the other,
// new or as a reply (In-Reply-To, References, the sender's threadId), sometimes through a draft; checked by the
// recipient's history.list since the moment before the send, the copy's labels and thread, Ben's label counts and
// listings, and Ben's whole messageAdded history since setup (docs/decisions/0445).

export type Box = Record<string, { threadId: string; labels: string[] }>
type Gmail = gmail_v1.Gmail
export const USERS = ['ann', 'ben'] as const
export const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort()
export const box = (f: Fuzz, u: string): Box => (u === 'ann' ? f.model.gmail.msgs : f.model.mail.ben)
export const client = (f: Fuzz, u: string): Gmail => (u === 'ann' ? f.gmail : f.ben.gmail)
/** Each sent Message-ID header, with its subject and the copies of it by user. */
export const convs = (f: Fuzz) => f.model.mail.sent

/**
 * The labels of a copy delivered to `to`: INBOX, UNREAD and the Primary tab, then each of the recipient's filters
 * that matches (by sender address or a subject word), in the order they were made (docs/decisions/0448).
 */
export function deliveredLabels(f: Fuzz, to: string, from: string, subject: string): string[] {
  let labels = ['CATEGORY_PERSONAL', 'INBOX', 'UNREAD']
  for (const rule of f.model.mailMore.filters[to] ?? []) {
    if (rule.from && rule.from !== `${from}@example.com`) continue
    if (rule.subject && !subject.split(/\s+/).includes(rule.subject)) continue
    const add = rule.add.filter((l) => !rule.remove.includes(l))
    labels = [...labels.filter((l) => !rule.remove.includes(l)), ...add]
  }
  return sorted(labels)
}

export async function mailSetup(f: Fuzz): Promise<void> {
  f.model.mail.history.ben = { id: await historyId(f, 'ben'), added: [] }
}

export async function historyId(f: Fuzz, u: string): Promise<string> {
  const r = await f.google('getProfile', false, () => client(f, u).users.getProfile({ userId: 'me' }))
  f.check(r.ok, 'getProfile')
  return r.data.historyId!
}

/** Every messageAdded id after `start`, paged 1–4 records a page, optionally filtered by a label. */
export async function added(f: Fuzz, u: string, start: string, labelId?: string): Promise<string[]> {
  const ids: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await f.google('history.list', false, () =>
      client(f, u).users.history.list({
        userId: 'me',
        startHistoryId: start,
        historyTypes: ['messageAdded'],
        maxResults: 1 + f.rng.int(4),
        ...(labelId ? { labelId } : {}),
        pageToken,
      }),
    )
    f.check(r.ok, () => `history.list: ${r.status} ${JSON.stringify(r.data)}`)
    for (const h of r.data.history ?? []) ids.push(...(h.messagesAdded ?? []).map((m) => m.message!.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  return ids
}

async function send(f: Fuzz): Promise<void> {
  const from = f.rng.pick(USERS)
  const to = from === 'ann' ? 'ben' : 'ann'
  const live = Object.entries(convs(f)).filter(([, c]) => c.copies[from] && box(f, from)[c.copies[from]!])
  const parent = live.length && f.rng.chance(0.5) ? f.rng.pick(live) : undefined
  const subject = parent ? `Re: ${parent[1].subject.replace(/^Re: /, '')}` : f.rng.text(40)
  const headers: Record<string, string> = {
    From: `${from}@example.com`,
    To: f.rng.chance(0.3) ? `${to}@example.com, zed@elsewhere.test` : `${to}@example.com`,
    Subject: subject,
    ...(parent ? { 'In-Reply-To': parent[0], References: parent[0] } : {}),
  }
  const raw = rfc822(headers, f.rng.text(200))
  const threadId = parent ? box(f, from)[parent[1].copies[from]!]!.threadId : undefined
  const viaDraft = from === 'ann' && f.rng.chance(0.3)
  const start = await historyId(f, to)
  const gmail = client(f, from)
  let sent: { id?: string | null; threadId?: string | null; labelIds?: string[] | null }
  if (viaDraft) {
    const d = await f.google('drafts.create', true, () =>
      gmail.users.drafts.create({ userId: 'me', requestBody: { message: { raw, threadId } } }),
    )
    f.check(d.ok, () => `drafts.create: ${d.status} ${JSON.stringify(d.data)}`)
    const r = await f.google('drafts.send', true, () =>
      gmail.users.drafts.send({ userId: 'me', requestBody: { id: d.data.id! } }),
    )
    f.check(r.ok, () => `drafts.send: ${r.status} ${JSON.stringify(r.data)}`)
    sent = r.data
  } else {
    const r = await f.google('messages.send', true, () =>
      gmail.users.messages.send({ userId: 'me', requestBody: { raw, threadId } }),
    )
    f.check(r.ok, () => `messages.send: ${r.status} ${JSON.stringify(r.data)}`)
    sent = r.data
  }
  f.equal(sorted(sent.labelIds ?? []), ['SENT'], 'sent copy labels')
  if (parent && threadId) f.equal(sent.threadId, threadId, 'a reply sent with its threadId stays in the thread')
  box(f, from)[sent.id!] = { threadId: sent.threadId!, labels: ['SENT'] }
  if (from === 'ben') f.model.mail.history.ben!.added.push(sent.id!)
  // The recipient's copy: exactly one message added since the moment before the send, in INBOX and UNREAD.
  const want = deliveredLabels(f, to, from, subject)
  // A filter that archives leaves INBOX out of the copy's labels; when Gmail applies it is not documented.
  const byInbox = f.rng.chance(0.3) && want.includes('INBOX')
  const got = await added(f, to, start, byInbox ? 'INBOX' : undefined)
  f.equal(got.length, 1, `${to}'s history since ${start} adds one message (${JSON.stringify(got)})`)
  const copy = await f.google('messages.get', false, () =>
    client(f, to).users.messages.get({
      userId: 'me',
      id: got[0]!,
      format: 'metadata',
      metadataHeaders: ['Message-ID', 'Subject'],
    }),
  )
  f.check(copy.ok, () => `${to} reads the delivered copy: ${copy.status}`)
  // Mail from a person lands in INBOX, unread, under the Primary tab (CATEGORY_PERSONAL).
  const labels = sorted(copy.data.labelIds ?? [])
  f.equal(labels, want, `${to}'s copy labels`)
  const header = (name: string) =>
    copy.data.payload?.headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? ''
  f.equal(header('Subject'), subject, `${to}'s copy subject`)
  const mid = header('Message-ID')
  f.check(mid && !convs(f)[mid], () => `delivered copy has a fresh Message-ID (${mid})`)
  if (parent) {
    const mine = parent[1].copies[to]
    if (mine && box(f, to)[mine]) {
      f.equal(copy.data.threadId, box(f, to)[mine]!.threadId, `${to}'s reply joins the thread of their copy`)
    }
  }
  box(f, to)[copy.data.id!] = { threadId: copy.data.threadId!, labels }
  if (to === 'ben') f.model.mail.history.ben!.added.push(copy.data.id!)
  convs(f)[mid] = { subject, copies: { [from]: sent.id!, [to]: copy.data.id! } }
}

/** Ben reads, stars or trashes one of his messages. */
async function benModify(f: Fuzz): Promise<void> {
  const ids = Object.keys(f.model.mail.ben)
  if (!ids.length) return send(f)
  const id = f.rng.pick(ids)
  const m = f.model.mail.ben[id]!
  const [add, remove] = f.rng.pick([
    [[], ['UNREAD']],
    [['UNREAD'], []],
    [['STARRED'], []],
    [['TRASH'], ['INBOX']],
    [[], ['TRASH']],
  ] as [string[], string[]][])
  const r = await f.google('ben messages.modify', true, () =>
    client(f, 'ben').users.messages.modify({
      userId: 'me',
      id,
      requestBody: { addLabelIds: add, removeLabelIds: remove },
    }),
  )
  f.check(r.ok, () => `ben modify: ${r.status} ${JSON.stringify(r.data)}`)
  m.labels = sorted([...m.labels, ...add].filter((l) => !remove.includes(l)))
  f.equal(sorted(r.data.labelIds ?? []), m.labels, `ben modify +${add} -${remove}`)
}

/** Ben's label counts, INBOX listing, a thread and his whole messageAdded history agree with the model. */
async function benCheck(f: Fuzz): Promise<void> {
  const gmail = client(f, 'ben')
  const msgs = f.model.mail.ben
  const id = f.rng.pick(['INBOX', 'UNREAD', 'SENT', 'STARRED', 'TRASH'])
  const r = await f.google('ben labels.get', false, () => gmail.users.labels.get({ userId: 'me', id }))
  f.check(r.ok, 'ben labels.get')
  const withLabel = Object.values(msgs).filter((m) => m.labels.includes(id))
  const unread = withLabel.filter((m) => m.labels.includes('UNREAD'))
  f.equal(
    [r.data.messagesTotal, r.data.messagesUnread, r.data.threadsTotal, r.data.threadsUnread],
    [
      withLabel.length,
      unread.length,
      new Set(withLabel.map((m) => m.threadId)).size,
      new Set(unread.map((m) => m.threadId)).size,
    ],
    `ben ${id} counts`,
  )
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const l = await f.google('ben messages.list', false, () =>
      gmail.users.messages.list({ userId: 'me', labelIds: [id], maxResults: 1 + f.rng.int(4), pageToken }),
    )
    f.check(l.ok, 'ben messages.list')
    seen.push(...(l.data.messages ?? []).map((m) => m.id!))
    pageToken = l.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  const want = Object.entries(msgs)
    .filter(([, m]) => m.labels.includes(id) && (id === 'TRASH' || !m.labels.includes('TRASH')))
    .map(([k]) => k)
  f.equal(sorted(seen), sorted(want), `ben messages.list ${id}`)
  const ids = Object.keys(msgs)
  if (ids.length) {
    const threadId = msgs[f.rng.pick(ids)]!.threadId
    const t = await f.google('ben threads.get', false, () =>
      gmail.users.threads.get({ userId: 'me', id: threadId, format: 'minimal' }),
    )
    f.check(t.ok, 'ben threads.get')
    const members = Object.entries(msgs).filter(([, m]) => m.threadId === threadId)
    f.equal(sorted((t.data.messages ?? []).map((m) => m.id!)), sorted(members.map(([k]) => k)), 'ben thread')
    for (const m of t.data.messages ?? []) f.equal(sorted(m.labelIds ?? []), msgs[m.id!]!.labels, `ben ${m.id}`)
  }
  const mark = f.model.mail.history.ben!
  f.equal(sorted(await added(f, 'ben', mark.id)), sorted(mark.added), `ben's messageAdded since ${mark.id}`)
}

export const mailOps: Op[] = [
  { name: 'mail.send', weight: 5, run: send },
  { name: 'mail.benModify', weight: 2, run: benModify },
  { name: 'mail.benCheck', weight: 2, run: benCheck },
]
