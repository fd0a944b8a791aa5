import { rfc822 } from '../../gmail/fixtures.ts'
import type { Fuzz, Op } from './engine.ts'

// Gmail (Ann's mailbox): labels created, renamed while in use and deleted; messages inserted, sent, modified,
// trashed and deleted; drafts created, updated and sent; checked by get, paged lists, label counts and threads.

const SYSTEM = ['INBOX', 'UNREAD', 'STARRED', 'IMPORTANT']
type Msg = { id?: string | null; threadId?: string | null; labelIds?: string[] | null }

const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort()
const msgIds = (f: Fuzz) => Object.keys(f.model.gmail.msgs)
const userLabels = (f: Fuzz) => Object.keys(f.model.gmail.labels)
const note = (f: Fuzz, m: Msg) => {
  f.model.gmail.msgs[m.id!] = { threadId: m.threadId!, labels: sorted(m.labelIds ?? []) }
}
const raw = (f: Fuzz, extra: Record<string, string> = {}) =>
  rfc822({ From: 'ann@example.com', To: 'zed@elsewhere.test', Subject: f.rng.text(), ...extra }, f.rng.text(200))

function labelName(f: Fuzz): string {
  const names = Object.values(f.model.gmail.labels)
  if (names.length && f.rng.chance(0.15)) return f.rng.pick(names)
  const name = f.rng.text(60)
  return f.rng.chance(0.2) && names.length ? `${f.rng.pick(names)}/${name}` : name
}
const taken = (f: Fuzz, name: string, except?: string) =>
  Object.entries(f.model.gmail.labels).some(([id, n]) => id !== except && n.toLowerCase() === name.toLowerCase())

async function labelCreate(f: Fuzz): Promise<void> {
  const name = labelName(f)
  const r = await f.google('labels.create', true, () =>
    f.gmail.users.labels.create({ userId: 'me', requestBody: { name } }),
  )
  if (taken(f, name)) return f.equal(r.status, 409, `labels.create of taken name ${JSON.stringify(name)}`)
  f.check(r.ok, () => `labels.create ${JSON.stringify(name)}: ${r.status} ${JSON.stringify(r.data)}`)
  if (r.ok) {
    f.equal(r.data.name, name, 'created label name')
    f.model.gmail.labels[r.data.id!] = name
  }
}

async function labelRename(f: Fuzz): Promise<void> {
  const ids = userLabels(f)
  if (!ids.length) return labelCreate(f)
  const id = f.rng.pick(ids)
  const name = labelName(f)
  const r = await f.google('labels.patch', true, () =>
    f.gmail.users.labels.patch({ userId: 'me', id, requestBody: { name } }),
  )
  if (taken(f, name, id)) return f.equal(r.status, 409, `labels.patch to taken name ${JSON.stringify(name)}`)
  f.check(r.ok, () => `labels.patch ${JSON.stringify(name)}: ${r.status} ${JSON.stringify(r.data)}`)
  if (r.ok) f.model.gmail.labels[id] = name
}

async function labelDelete(f: Fuzz): Promise<void> {
  const ids = userLabels(f)
  if (!ids.length) return labelCreate(f)
  const id = f.rng.pick(ids)
  const r = await f.google('labels.delete', true, () => f.gmail.users.labels.delete({ userId: 'me', id }))
  f.check(r.ok, () => `labels.delete: ${r.status}`)
  delete f.model.gmail.labels[id]
  for (const m of Object.values(f.model.gmail.msgs)) m.labels = m.labels.filter((l) => l !== id)
}

async function insert(f: Fuzz): Promise<void> {
  const labelIds = sorted([
    'INBOX',
    'UNREAD',
    ...(userLabels(f).length && f.rng.chance(0.5) ? [f.rng.pick(userLabels(f))] : []),
  ])
  const r = await f.google('messages.insert', true, () =>
    f.gmail.users.messages.insert({ userId: 'me', requestBody: { raw: raw(f), labelIds } }),
  )
  f.check(r.ok, () => `messages.insert: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  f.equal(sorted(r.data.labelIds ?? []), labelIds, 'inserted labelIds')
  note(f, r.data)
}

async function send(f: Fuzz): Promise<void> {
  const r = await f.google('messages.send', true, () =>
    f.gmail.users.messages.send({ userId: 'me', requestBody: { raw: raw(f) } }),
  )
  f.check(r.ok, () => `messages.send: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  f.check(r.data.labelIds?.includes('SENT'), 'sent message has SENT')
  note(f, r.data)
}

function labelChange(f: Fuzz, labels: string[]) {
  const pool = [...SYSTEM, ...userLabels(f)]
  const add = sorted(pool.filter(() => f.rng.chance(0.25)))
  const remove = sorted(pool.filter((l) => !add.includes(l) && f.rng.chance(0.25)))
  // Gmail refuses a change with nothing to add or remove.
  if (!add.length && !remove.length) add.push('STARRED')
  return { add, remove, expected: sorted([...labels, ...add].filter((l) => !remove.includes(l))) }
}

async function modify(f: Fuzz): Promise<void> {
  const ids = msgIds(f).filter((id) => !f.model.gmail.msgs[id]!.labels.includes('DRAFT'))
  if (!ids.length) return insert(f)
  const id = f.rng.pick(ids)
  const m = f.model.gmail.msgs[id]!
  const { add, remove, expected } = labelChange(f, m.labels)
  const r = await f.google('messages.modify', true, () =>
    f.gmail.users.messages.modify({ userId: 'me', id, requestBody: { addLabelIds: add, removeLabelIds: remove } }),
  )
  f.check(r.ok, () => `messages.modify: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  f.equal(sorted(r.data.labelIds ?? []), expected, `modify +${add} -${remove} labelIds`)
  m.labels = expected
}

async function threadModify(f: Fuzz): Promise<void> {
  const ids = msgIds(f).filter((id) => !f.model.gmail.msgs[id]!.labels.includes('DRAFT'))
  if (!ids.length) return insert(f)
  const threadId = f.model.gmail.msgs[f.rng.pick(ids)]!.threadId
  const { add, remove } = labelChange(f, [])
  const r = await f.google('threads.modify', true, () =>
    f.gmail.users.threads.modify({
      userId: 'me',
      id: threadId,
      requestBody: { addLabelIds: add, removeLabelIds: remove },
    }),
  )
  f.check(r.ok, () => `threads.modify: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  for (const m of r.data.messages ?? []) {
    const was = f.model.gmail.msgs[m.id!]!
    if (was.labels.includes('DRAFT')) continue
    const expected = sorted([...was.labels, ...add].filter((l) => !remove.includes(l)))
    f.equal(sorted(m.labelIds ?? []), expected, `threads.modify +${add} -${remove} message ${m.id}`)
    was.labels = expected
  }
}

async function trash(f: Fuzz): Promise<void> {
  const ids = msgIds(f).filter((id) => !f.model.gmail.msgs[id]!.labels.includes('DRAFT'))
  if (!ids.length) return insert(f)
  const id = f.rng.pick(ids)
  const m = f.model.gmail.msgs[id]!
  const out = m.labels.includes('TRASH')
  const r = await f.google(out ? 'messages.untrash' : 'messages.trash', true, () =>
    out ? f.gmail.users.messages.untrash({ userId: 'me', id }) : f.gmail.users.messages.trash({ userId: 'me', id }),
  )
  f.check(r.ok, () => `trash/untrash: ${r.status}`)
  if (!r.ok) return
  f.equal(r.data.labelIds?.includes('TRASH') ?? false, !out, 'TRASH after trash/untrash')
  // Trash takes INBOX away; user labels and the other system labels stay.
  const others = (ls: string[]) => ls.filter((l) => l !== 'TRASH' && l !== 'INBOX')
  f.equal(sorted(others(r.data.labelIds ?? [])), others(m.labels), 'other labels kept')
  note(f, r.data)
}

async function remove(f: Fuzz): Promise<void> {
  const ids = msgIds(f).filter((id) => !f.model.gmail.msgs[id]!.labels.includes('DRAFT'))
  if (!ids.length) return insert(f)
  const id = f.rng.pick(ids)
  const r = await f.google('messages.delete', true, () => f.gmail.users.messages.delete({ userId: 'me', id }))
  f.check(r.ok, () => `messages.delete: ${r.status}`)
  delete f.model.gmail.msgs[id]
  const again = await f.google('messages.get', false, () => f.gmail.users.messages.get({ userId: 'me', id }))
  f.equal(again.status, 404, 'get after delete')
}

async function draft(f: Fuzz): Promise<void> {
  const drafts = Object.keys(f.model.drafts)
  const which = drafts.length ? f.rng.int(3) : 0
  if (which === 0) {
    const r = await f.google('drafts.create', true, () =>
      f.gmail.users.drafts.create({ userId: 'me', requestBody: { message: { raw: raw(f) } } }),
    )
    f.check(r.ok, () => `drafts.create: ${r.status}`)
    if (!r.ok) return
    f.model.drafts[r.data.id!] = r.data.message!.id!
    note(f, r.data.message!)
    return
  }
  const id = f.rng.pick(drafts)
  const old = f.model.drafts[id]!
  if (which === 1) {
    const r = await f.google('drafts.update', true, () =>
      f.gmail.users.drafts.update({ userId: 'me', id, requestBody: { message: { raw: raw(f) } } }),
    )
    f.check(r.ok, () => `drafts.update: ${r.status}`)
    if (!r.ok) return
    f.equal(r.data.id, id, 'draft id kept')
    delete f.model.gmail.msgs[old]
    f.model.drafts[id] = r.data.message!.id!
    note(f, r.data.message!)
    return
  }
  const r = await f.google('drafts.send', true, () => f.gmail.users.drafts.send({ userId: 'me', requestBody: { id } }))
  f.check(r.ok, () => `drafts.send: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  f.check(r.data.labelIds?.includes('SENT') && !r.data.labelIds.includes('DRAFT'), 'sent draft is SENT, not DRAFT')
  delete f.model.gmail.msgs[old]
  delete f.model.drafts[id]
  note(f, r.data)
  const gone = await f.google('drafts.get', false, () => f.gmail.users.drafts.get({ userId: 'me', id }))
  f.equal(gone.status, 404, 'draft after send')
}

async function get(f: Fuzz): Promise<void> {
  const ids = msgIds(f)
  if (!ids.length) return insert(f)
  const id = f.rng.pick(ids)
  const r = await f.google('messages.get', false, () =>
    f.gmail.users.messages.get({ userId: 'me', id, format: f.rng.pick(['minimal', 'full', 'metadata']) }),
  )
  f.check(r.ok, () => `messages.get: ${r.status}`)
  if (!r.ok) return
  const m = f.model.gmail.msgs[id]!
  f.equal(r.data.threadId, m.threadId, 'threadId')
  f.equal(sorted(r.data.labelIds ?? []), m.labels, `labelIds of ${id}`)
}

async function list(f: Fuzz): Promise<void> {
  const label = f.rng.pick([...SYSTEM, 'SENT', 'DRAFT', ...userLabels(f)])
  const all = f.rng.chance(0.3)
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const maxResults = 1 + f.rng.int(4)
    const r = await f.google('messages.list', false, () =>
      f.gmail.users.messages.list({ userId: 'me', labelIds: [label], maxResults, pageToken, includeSpamTrash: all }),
    )
    f.check(r.ok, () => `messages.list: ${r.status}`)
    if (!r.ok) return
    seen.push(...(r.data.messages ?? []).map((m) => m.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  f.equal(seen.length, new Set(seen).size, `list ${label} visits each message once`)
  const want = Object.entries(f.model.gmail.msgs)
    .filter(([, m]) => m.labels.includes(label) && (all || !m.labels.includes('TRASH')))
    .map(([id]) => id)
  f.equal(sorted(seen), sorted(want), `messages.list labelIds=${label} includeSpamTrash=${all}`)
}

/** A search and the messages it should find: label names as `label:` takes them, after renames too. */
function query(f: Fuzz): { q: string; match: (labels: string[]) => boolean } {
  const key = (n: string) => n.toLowerCase().replace(/[\s/_-]+/g, '-')
  const named = Object.entries(f.model.gmail.labels).filter(
    ([, n]) =>
      /^[\p{L}\p{N} _/-]+$/u.test(n) &&
      Object.values(f.model.gmail.labels).filter((o) => key(o) === key(n)).length === 1 &&
      !['inbox', 'unread', 'starred', 'important', 'sent', 'draft', 'trash', 'spam'].includes(key(n)),
  )
  const live = (ls: string[]) => !ls.includes('TRASH')
  const simple: [string, (ls: string[]) => boolean][] = [
    ['is:unread', (ls) => live(ls) && ls.includes('UNREAD')],
    ['is:starred', (ls) => live(ls) && ls.includes('STARRED')],
    ['in:inbox', (ls) => live(ls) && ls.includes('INBOX')],
    ['in:sent', (ls) => live(ls) && ls.includes('SENT')],
    ['in:trash', (ls) => ls.includes('TRASH')],
    ['is:unread -is:starred', (ls) => live(ls) && ls.includes('UNREAD') && !ls.includes('STARRED')],
    ['in:inbox OR is:starred', (ls) => live(ls) && (ls.includes('INBOX') || ls.includes('STARRED'))],
  ]
  if (named.length && f.rng.chance(0.5)) {
    const [id, name] = f.rng.pick(named)
    return { q: `label:${key(name)}`, match: (ls) => live(ls) && ls.includes(id) }
  }
  const [q, match] = f.rng.pick(simple)
  return { q, match }
}

async function search(f: Fuzz): Promise<void> {
  const { q, match } = query(f)
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const maxResults = 1 + f.rng.int(5)
    const r = await f.google('messages.list q', false, () =>
      f.gmail.users.messages.list({ userId: 'me', q, maxResults, pageToken }),
    )
    f.check(r.ok, () => `messages.list q=${q}: ${r.status}`)
    if (!r.ok) return
    seen.push(...(r.data.messages ?? []).map((m) => m.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  f.equal(seen.length, new Set(seen).size, `q=${q} visits each message once`)
  const want = Object.entries(f.model.gmail.msgs)
    .filter(([, m]) => match(m.labels))
    .map(([id]) => id)
  f.equal(sorted(seen), sorted(want), `messages.list q=${q}`)
}

async function counts(f: Fuzz): Promise<void> {
  const id = f.rng.pick([...SYSTEM, ...userLabels(f)])
  const r = await f.google('labels.get', false, () => f.gmail.users.labels.get({ userId: 'me', id }))
  f.check(r.ok, () => `labels.get: ${r.status}`)
  if (!r.ok) return
  if (f.model.gmail.labels[id]) f.equal(r.data.name, f.model.gmail.labels[id], 'label name')
  const withLabel = Object.values(f.model.gmail.msgs).filter((m) => m.labels.includes(id))
  f.equal(r.data.messagesTotal, withLabel.length, `${id} messagesTotal`)
  f.equal(r.data.messagesUnread, withLabel.filter((m) => m.labels.includes('UNREAD')).length, `${id} messagesUnread`)
  f.equal(r.data.threadsTotal, new Set(withLabel.map((m) => m.threadId)).size, `${id} threadsTotal`)
}

async function thread(f: Fuzz): Promise<void> {
  const ids = msgIds(f)
  if (!ids.length) return insert(f)
  const threadId = f.model.gmail.msgs[f.rng.pick(ids)]!.threadId
  const r = await f.google('threads.get', false, () =>
    f.gmail.users.threads.get({ userId: 'me', id: threadId, format: 'minimal' }),
  )
  f.check(r.ok, () => `threads.get: ${r.status}`)
  if (!r.ok) return
  const want = Object.entries(f.model.gmail.msgs)
    .filter(([, m]) => m.threadId === threadId)
    .map(([id]) => id)
  f.equal(sorted((r.data.messages ?? []).map((m) => m.id!)), sorted(want), `thread ${threadId} messages`)
}

/** threads.list by label, paged: the threads with at least one message carrying it (trash left out). */
async function threadList(f: Fuzz): Promise<void> {
  const label = f.rng.pick([...SYSTEM, 'SENT', ...userLabels(f)])
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const maxResults = 1 + f.rng.int(4)
    const r = await f.google('threads.list', false, () =>
      f.gmail.users.threads.list({ userId: 'me', labelIds: [label], maxResults, pageToken }),
    )
    f.check(r.ok, () => `threads.list: ${r.status}`)
    if (!r.ok) return
    seen.push(...(r.data.threads ?? []).map((t) => t.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  f.equal(seen.length, new Set(seen).size, `threads.list ${label} visits each thread once`)
  const want = new Set(
    Object.values(f.model.gmail.msgs)
      .filter((m) => m.labels.includes(label) && !m.labels.includes('TRASH'))
      .map((m) => m.threadId),
  )
  f.equal(sorted(seen), sorted(want), `threads.list labelIds=${label}`)
}

/** labels.list names what the model holds, and every system label. */
async function labelList(f: Fuzz): Promise<void> {
  const r = await f.google('labels.list', false, () => f.gmail.users.labels.list({ userId: 'me' }))
  f.check(r.ok, () => `labels.list: ${r.status}`)
  if (!r.ok) return
  const user = (r.data.labels ?? []).filter((l) => l.type === 'user')
  f.equal(
    Object.fromEntries(user.map((l) => [l.id!, l.name!]).sort()),
    Object.fromEntries(Object.entries(f.model.gmail.labels).sort()),
    'user labels',
  )
}

/** threads.trash / untrash: every message of the thread follows. */
async function threadTrash(f: Fuzz): Promise<void> {
  const ids = msgIds(f).filter((id) => !f.model.gmail.msgs[id]!.labels.includes('DRAFT'))
  if (!ids.length) return insert(f)
  const threadId = f.model.gmail.msgs[f.rng.pick(ids)]!.threadId
  const out = f.rng.chance(0.4)
  const r = await f.google(out ? 'threads.untrash' : 'threads.trash', true, () =>
    out
      ? f.gmail.users.threads.untrash({ userId: 'me', id: threadId })
      : f.gmail.users.threads.trash({ userId: 'me', id: threadId }),
  )
  f.check(r.ok, () => `threads trash/untrash: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  for (const m of r.data.messages ?? []) {
    const was = f.model.gmail.msgs[m.id!]!
    if (!was.labels.includes('DRAFT')) f.equal(m.labelIds?.includes('TRASH') ?? false, !out, `thread message ${m.id}`)
    note(f, m)
  }
}

export const gmailOps: Op[] = [
  { name: 'gmail.labelCreate', weight: 2, run: labelCreate },
  { name: 'gmail.labelRename', weight: 2, run: labelRename },
  { name: 'gmail.labelDelete', weight: 1, run: labelDelete },
  { name: 'gmail.insert', weight: 3, run: insert },
  { name: 'gmail.send', weight: 2, run: send },
  { name: 'gmail.modify', weight: 3, run: modify },
  { name: 'gmail.threadModify', weight: 1, run: threadModify },
  { name: 'gmail.trash', weight: 2, run: trash },
  { name: 'gmail.delete', weight: 1, run: remove },
  { name: 'gmail.draft', weight: 2, run: draft },
  { name: 'gmail.get', weight: 2, run: get },
  { name: 'gmail.list', weight: 2, run: list },
  { name: 'gmail.search', weight: 2, run: search },
  { name: 'gmail.counts', weight: 2, run: counts },
  { name: 'gmail.thread', weight: 1, run: thread },
  { name: 'gmail.threadList', weight: 1, run: threadList },
  { name: 'gmail.labelList', weight: 1, run: labelList },
  { name: 'gmail.threadTrash', weight: 1, run: threadTrash },
]
