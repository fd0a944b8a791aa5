import { rfc822 } from '../../gmail/fixtures.ts'
import type { Fuzz, MailFilter, Op } from './engine.ts'
import { added, box, client, convs, deliveredLabels, historyId, sorted, USERS } from './ops-mail.ts'

// More Gmail between two mailboxes (docs/decisions/0448): label changes read back through history.list with
// historyTypes labelAdded/labelRemoved (and labelId); Cc and Bcc between the users (Bcc kept in the sender's copy
// only, searched with cc:/bcc:); filters that label, archive or mark read on delivery; Ben's drafts.

const other = (u: string) => (u === 'ann' ? 'ben' : 'ann')
const addr = (u: string) => `${u}@example.com`
const KEYWORDS = ['alpha', 'omega']
/** Each user's own labels: Ann's are the `gmail` family's, Ben's this family's. */
const userLabels = (f: Fuzz, u: string): Record<string, string> =>
  u === 'ann' ? f.model.gmail.labels : f.model.mailMore.labels

export async function mailMoreSetup(f: Fuzz): Promise<void> {
  f.model.mail.history.ben ??= { id: await historyId(f, 'ben'), added: [] }
}

/** A history line as the model writes it: type, message, changed labels, the message's labels after. */
type Line = { id: string; type: string; changed: string[]; after: string[] }
const text = (l: Line) => `${l.type} ${l.id} ${l.changed.join(',')} / ${l.after.join(',')}`

/** Applies a label change to the model as Gmail does and returns the history lines it should write. */
function change(f: Fuzz, u: string, id: string, add: string[], remove: string[]): Line[] {
  const m = box(f, u)[id]!
  const addNow = sorted(add).filter((l) => !m.labels.includes(l) && !remove.includes(l))
  const removeNow = sorted(remove).filter((l) => m.labels.includes(l))
  m.labels = sorted([...m.labels.filter((l) => !removeNow.includes(l)), ...addNow])
  const lines: Line[] = []
  if (addNow.length) lines.push({ id, type: 'labelAdded', changed: addNow, after: m.labels })
  if (removeNow.length) lines.push({ id, type: 'labelRemoved', changed: removeNow, after: m.labels })
  return lines
}

/** A random label change (modify, thread modify, trash/untrash, label delete), then the label history since. */
async function labelHistory(f: Fuzz): Promise<void> {
  const u = f.rng.pick(USERS)
  const msgs = box(f, u)
  const ids = Object.keys(msgs).filter((id) => !msgs[id]!.labels.includes('DRAFT'))
  if (!ids.length) return hidden(f)
  const gmail = client(f, u)
  const start = await historyId(f, u)
  const pool = ['UNREAD', 'STARRED', 'IMPORTANT', ...Object.keys(userLabels(f, u))]
  const add = pool.filter(() => f.rng.chance(0.3))
  const remove = pool.filter((l) => !add.includes(l) && f.rng.chance(0.3))
  if (!add.length && !remove.length) add.push('STARRED')
  const id = f.rng.pick(ids)
  const threadId = msgs[id]!.threadId
  const members = Object.keys(msgs).filter((k) => msgs[k]!.threadId === threadId)
  const mode = f.rng.int(10)
  const lines: Line[] = []
  if (mode < 6) {
    const r = await f.google(`${u} messages.modify`, true, () =>
      gmail.users.messages.modify({ userId: 'me', id, requestBody: { addLabelIds: add, removeLabelIds: remove } }),
    )
    f.check(r.ok, () => `${u} modify: ${r.status} ${JSON.stringify(r.data)}`)
    lines.push(...change(f, u, id, add, remove))
    f.equal(sorted(r.data.labelIds ?? []), msgs[id]!.labels, `${u} modify of ${id}`)
  } else if (mode < 8 && members.every((k) => !msgs[k]!.labels.includes('DRAFT'))) {
    const r = await f.google(`${u} threads.modify`, true, () =>
      gmail.users.threads.modify({
        userId: 'me',
        id: threadId,
        requestBody: { addLabelIds: add, removeLabelIds: remove },
      }),
    )
    f.check(r.ok, () => `${u} threads.modify: ${r.status} ${JSON.stringify(r.data)}`)
    for (const k of members) lines.push(...change(f, u, k, add, remove))
  } else if (mode < 9) {
    const trashed = msgs[id]!.labels.includes('TRASH')
    const r = trashed
      ? await f.google(`${u} untrash`, true, () => gmail.users.messages.untrash({ userId: 'me', id }))
      : await f.google(`${u} trash`, true, () => gmail.users.messages.trash({ userId: 'me', id }))
    f.check(r.ok, () => `${u} (un)trash: ${r.status}`)
    lines.push(...(trashed ? change(f, u, id, [], ['TRASH']) : change(f, u, id, ['TRASH'], ['INBOX', 'SPAM'])))
  } else {
    const used = new Set((f.model.mailMore.filters[u] ?? []).flatMap((r) => r.add))
    const free = Object.keys(userLabels(f, u)).filter((l) => !used.has(l))
    if (!free.length) return benLabel(f)
    const label = f.rng.pick(free)
    const r = await f.google(`${u} labels.delete`, true, () => gmail.users.labels.delete({ userId: 'me', id: label }))
    f.check(r.ok, () => `${u} labels.delete: ${r.status}`)
    delete userLabels(f, u)[label]
    for (const k of Object.keys(msgs)) if (msgs[k]!.labels.includes(label)) lines.push(...change(f, u, k, [], [label]))
  }
  await labelLines(f, u, start, lines)
}

/** history.list since `start` with a random choice of label types (and sometimes a labelId) gives `lines`. */
async function labelLines(f: Fuzz, u: string, start: string, lines: Line[]): Promise<void> {
  const types = f.rng.pick([['labelAdded'], ['labelRemoved'], ['labelAdded', 'labelRemoved']])
  const touched = [...new Set(lines.flatMap((l) => l.changed))]
  const labelId = touched.length && f.rng.chance(0.3) ? f.rng.pick(touched) : undefined
  const want = lines
    .filter((l) => types.includes(l.type) && (!labelId || l.changed.includes(labelId) || l.after.includes(labelId)))
    .map(text)
  const got: string[] = []
  let last = Number(start)
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await f.google(`${u} history.list`, false, () =>
      client(f, u).users.history.list({
        userId: 'me',
        startHistoryId: start,
        historyTypes: types,
        maxResults: 1 + f.rng.int(4),
        ...(labelId ? { labelId } : {}),
        pageToken,
      }),
    )
    f.check(r.ok, () => `history.list: ${r.status} ${JSON.stringify(r.data)}`)
    for (const h of r.data.history ?? []) {
      f.check(Number(h.id) > last, () => `history ids rise: ${h.id} after ${last}`)
      last = Number(h.id)
      const each = (type: string, xs: typeof h.labelsAdded) =>
        (xs ?? []).map((x) =>
          text({
            id: x.message!.id!,
            type,
            changed: sorted(x.labelIds ?? []),
            after: sorted(x.message!.labelIds ?? []),
          }),
        )
      got.push(...each('labelAdded', h.labelsAdded), ...each('labelRemoved', h.labelsRemoved))
      f.check(!h.messagesAdded?.length, 'no messageAdded when not asked')
    }
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  f.equal(got.sort(), want.sort(), `${u}'s ${types} history since ${start}${labelId ? ` on ${labelId}` : ''}`)
}

/** Mail that names the other user in Cc or Bcc (or Bccs an outsider): who sees which header, filters applied. */
async function hidden(f: Fuzz): Promise<void> {
  const from = f.rng.pick(USERS)
  const to = other(from)
  const variant = f.rng.pick(['cc', 'bcc', 'outsiderBcc'] as const)
  const kw = f.rng.chance(0.5) ? f.rng.pick(KEYWORDS) : ''
  const subject = kw ? `${f.rng.text(30)} ${kw}` : f.rng.text(40)
  const hiddenTo: { Cc?: string; Bcc?: string } =
    variant === 'cc' ? { Cc: addr(to) } : { Bcc: variant === 'bcc' ? addr(to) : 'yan@elsewhere.test' }
  const toHeader = variant === 'outsiderBcc' ? addr(to) : 'zed@elsewhere.test'
  const headers: Record<string, string> = { From: addr(from), To: toHeader, Subject: subject }
  if (hiddenTo.Cc) headers.Cc = hiddenTo.Cc
  if (hiddenTo.Bcc) headers.Bcc = hiddenTo.Bcc
  const start = await historyId(f, to)
  const r = await f.google(`${from} messages.send`, true, () =>
    client(f, from).users.messages.send({ userId: 'me', requestBody: { raw: rfc822(headers, f.rng.text(120)) } }),
  )
  f.check(r.ok, () => `messages.send: ${r.status} ${JSON.stringify(r.data)}`)
  f.equal(sorted(r.data.labelIds ?? []), ['SENT'], 'sent copy labels')
  box(f, from)[r.data.id!] = { threadId: r.data.threadId!, labels: ['SENT'] }
  if (from === 'ben') f.model.mail.history.ben!.added.push(r.data.id!)
  const got = await added(f, to, start)
  f.equal(got.length, 1, `${to}'s history since ${start} adds one message`)
  const names = ['To', 'Cc', 'Bcc', 'Subject', 'Message-ID']
  const read = (u: string, id: string) =>
    f.google(`${u} messages.get`, false, () =>
      client(f, u).users.messages.get({ userId: 'me', id, format: 'metadata', metadataHeaders: names }),
    )
  const copy = await read(to, got[0]!)
  f.check(copy.ok, () => `${to} reads the copy: ${copy.status}`)
  const header = (m: typeof copy.data, name: string) =>
    m.payload?.headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value
  f.equal(header(copy.data, 'Bcc'), undefined, `${to}'s copy shows no Bcc`)
  f.equal(header(copy.data, 'Cc'), variant === 'cc' ? addr(to) : undefined, `${to}'s copy Cc`)
  f.equal(header(copy.data, 'To'), toHeader, `${to}'s copy To`)
  f.equal(sorted(copy.data.labelIds ?? []), deliveredLabels(f, to, from, subject), `${to}'s copy labels`)
  const mine = await read(from, r.data.id!)
  f.check(mine.ok, 'sender reads the sent copy')
  f.equal(header(mine.data, 'Bcc'), hiddenTo.Bcc, `${from}'s sent copy keeps its Bcc`)
  box(f, to)[copy.data.id!] = { threadId: copy.data.threadId!, labels: sorted(copy.data.labelIds ?? []) }
  if (to === 'ben') f.model.mail.history.ben!.added.push(copy.data.id!)
  const mid = header(copy.data, 'Message-ID')!
  convs(f)[mid] = { subject, copies: { [from]: r.data.id!, [to]: copy.data.id! } }
  if (variant === 'cc') (f.model.mailMore.cc[to] ??= []).push(copy.data.id!)
  if (variant === 'bcc') (f.model.mailMore.bcc[from] ??= []).push(r.data.id!)
}

/** `cc:me`, `bcc:them` and `bcc:me` searches agree with the copies that came by Cc and the sent Bccs. */
async function search(f: Fuzz): Promise<void> {
  const u = f.rng.pick(USERS)
  const msgs = box(f, u)
  const live = (ids: string[] = []) => ids.filter((id) => msgs[id] && !msgs[id].labels.includes('TRASH'))
  const queries: [string, string[]][] = [
    [`cc:${addr(u)}`, live(f.model.mailMore.cc[u])],
    [`bcc:${addr(other(u))}`, live(f.model.mailMore.bcc[u])],
    [`bcc:${addr(u)}`, []],
  ]
  const [q, want] = f.rng.pick(queries)
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await f.google(`${u} messages.list q`, false, () =>
      client(f, u).users.messages.list({ userId: 'me', q, maxResults: 1 + f.rng.int(4), pageToken }),
    )
    f.check(r.ok, () => `messages.list q=${q}: ${r.status}`)
    seen.push(...(r.data.messages ?? []).map((m) => m.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  f.equal(sorted(seen), sorted(want), `${u} search ${q}`)
}

/** Ben makes a label of his own (a taken name, any case, answers 409). */
async function benLabel(f: Fuzz): Promise<void> {
  const name = `Filed ${f.rng.int(20)}`
  const r = await f.google('ben labels.create', true, () =>
    f.ben.gmail.users.labels.create({ userId: 'me', requestBody: { name } }),
  )
  const taken = Object.values(f.model.mailMore.labels).some((n) => n.toLowerCase() === name.toLowerCase())
  if (taken) return f.equal(r.status, 409, `ben labels.create of taken ${name}`)
  f.check(r.ok, () => `ben labels.create: ${r.status} ${JSON.stringify(r.data)}`)
  f.model.mailMore.labels[r.data.id!] = name
}

/** A user makes or deletes a filter: by sender or subject word; star, mark important, label, archive, mark read. */
async function filter(f: Fuzz): Promise<void> {
  const u = f.rng.pick(USERS)
  const rules = (f.model.mailMore.filters[u] ??= [])
  const settings = client(f, u).users.settings.filters
  if (rules.length && f.rng.chance(0.3)) {
    const rule = rules.splice(f.rng.int(rules.length), 1)[0]!
    const r = await f.google(`${u} filters.delete`, true, () => settings.delete({ userId: 'me', id: rule.id }))
    f.check(r.ok, () => `filters.delete: ${r.status}`)
  } else {
    const bySubject = f.rng.chance(0.5)
    const criteria: { subject?: string; from?: string } = bySubject
      ? { subject: f.rng.pick(KEYWORDS) }
      : { from: addr(other(u)) }
    const labels = u === 'ben' ? Object.keys(f.model.mailMore.labels) : []
    const add = f.rng.pick([[], ['STARRED'], ['IMPORTANT'], ...labels.map((l) => [l])])
    const remove = f.rng.pick(add.length ? [[], ['INBOX'], ['UNREAD']] : [['INBOX'], ['UNREAD']])
    const action = { ...(add.length ? { addLabelIds: add } : {}), ...(remove.length ? { removeLabelIds: remove } : {}) }
    const r = await f.google(`${u} filters.create`, true, () =>
      settings.create({ userId: 'me', requestBody: { criteria, action } }),
    )
    const same = (x: MailFilter) =>
      JSON.stringify([x.from, x.subject, x.add, x.remove]) ===
      JSON.stringify([criteria.from, criteria.subject, add, remove])
    // Gmail refuses a filter equal to one the user has (409 "Filter already exists").
    if (rules.some(same)) f.equal(r.status, 409, 'a duplicate filter')
    else {
      f.check(r.ok, () => `filters.create: ${r.status} ${JSON.stringify(r.data)}`)
      f.equal([r.data.criteria, r.data.action], [criteria, action], 'created filter')
      rules.push({ id: r.data.id!, ...criteria, add, remove })
    }
  }
  const l = await f.google(`${u} filters.list`, false, () => settings.list({ userId: 'me' }))
  f.check(l.ok, 'filters.list')
  f.equal(sorted((l.data.filter ?? []).map((x) => x.id!)), sorted(rules.map((x) => x.id)), `${u}'s filters`)
}

/** Ben's drafts to Ann: create, update (a new message), delete, send (Ann's copy), and the list and counts. */
async function benDraft(f: Fuzz): Promise<void> {
  const drafts = f.model.mailMore.drafts
  const gmail = f.ben.gmail
  const ids = Object.keys(drafts)
  const which = ids.length ? f.rng.int(5) : 0
  const subject = f.rng.chance(0.3) ? `${f.rng.text(30)} ${f.rng.pick(KEYWORDS)}` : f.rng.text(40)
  const raw = () => rfc822({ From: addr('ben'), To: addr('ann'), Subject: subject }, f.rng.text(120))
  const history = f.model.mail.history.ben!
  if (which === 0) {
    const r = await f.google('ben drafts.create', true, () =>
      gmail.users.drafts.create({ userId: 'me', requestBody: { message: { raw: raw() } } }),
    )
    f.check(r.ok, () => `ben drafts.create: ${r.status}`)
    f.equal(r.data.message?.labelIds, ['DRAFT'], 'draft labels')
    drafts[r.data.id!] = { message: r.data.message!.id!, subject }
    history.added.push(r.data.message!.id!)
    return
  }
  const id = f.rng.pick(ids)
  if (which === 1) {
    const r = await f.google('ben drafts.update', true, () =>
      gmail.users.drafts.update({ userId: 'me', id, requestBody: { message: { raw: raw() } } }),
    )
    f.check(r.ok, () => `ben drafts.update: ${r.status}`)
    f.equal(r.data.id, id, 'draft id kept')
    drafts[id] = { message: r.data.message!.id!, subject }
    history.added.push(r.data.message!.id!)
  } else if (which === 2) {
    const r = await f.google('ben drafts.delete', true, () => gmail.users.drafts.delete({ userId: 'me', id }))
    f.check(r.ok, () => `ben drafts.delete: ${r.status}`)
    delete drafts[id]
    const gone = await f.google('ben drafts.get', false, () => gmail.users.drafts.get({ userId: 'me', id }))
    f.equal(gone.status, 404, 'draft after delete')
  } else if (which === 3) {
    const start = await historyId(f, 'ann')
    const r = await f.google('ben drafts.send', true, () =>
      gmail.users.drafts.send({ userId: 'me', requestBody: { id } }),
    )
    f.check(r.ok, () => `ben drafts.send: ${r.status} ${JSON.stringify(r.data)}`)
    f.equal(sorted(r.data.labelIds ?? []), ['SENT'], 'sent draft labels')
    const sent = drafts[id]!.subject
    delete drafts[id]
    box(f, 'ben')[r.data.id!] = { threadId: r.data.threadId!, labels: ['SENT'] }
    history.added.push(r.data.id!)
    const got = await added(f, 'ann', start)
    f.equal(got.length, 1, 'ann gets the sent draft')
    const copy = await f.google('ann messages.get', false, () =>
      f.gmail.users.messages.get({ userId: 'me', id: got[0]!, format: 'metadata', metadataHeaders: ['Subject'] }),
    )
    f.check(copy.ok, 'ann reads the sent draft')
    f.equal(copy.data.payload?.headers?.[0]?.value, sent, 'sent draft subject')
    f.equal(sorted(copy.data.labelIds ?? []), deliveredLabels(f, 'ann', 'ben', sent), 'sent draft labels at ann')
    box(f, 'ann')[copy.data.id!] = { threadId: copy.data.threadId!, labels: sorted(copy.data.labelIds ?? []) }
  }
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const l = await f.google('ben drafts.list', false, () =>
      gmail.users.drafts.list({ userId: 'me', maxResults: 1 + f.rng.int(4), pageToken }),
    )
    f.check(l.ok, 'ben drafts.list')
    for (const d of l.data.drafts ?? []) {
      seen.push(d.id!)
      f.equal(d.message?.id, drafts[d.id!]?.message, `draft ${d.id}'s message`)
    }
    pageToken = l.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  f.equal(sorted(seen), sorted(Object.keys(drafts)), "ben's drafts")
  const count = await f.google('ben labels.get', false, () => gmail.users.labels.get({ userId: 'me', id: 'DRAFT' }))
  f.check(count.ok, 'ben labels.get DRAFT')
  f.equal(count.data.messagesTotal, Object.keys(drafts).length, "ben's DRAFT count")
  const left = Object.keys(drafts)
  if (!left.length) return
  const pick = f.rng.pick(left)
  const g = await f.google('ben drafts.get', false, () =>
    gmail.users.drafts.get({ userId: 'me', id: pick, format: 'metadata' }),
  )
  f.check(g.ok, 'ben drafts.get')
  const subj = g.data.message?.payload?.headers?.find((h) => h.name === 'Subject')?.value
  f.equal([g.data.message?.id, subj], [drafts[pick]!.message, drafts[pick]!.subject], `draft ${pick}`)
}

export const mailMoreOps: Op[] = [
  { name: 'mailMore.labelHistory', weight: 5, run: labelHistory },
  { name: 'mailMore.hidden', weight: 4, run: hidden },
  { name: 'mailMore.search', weight: 2, run: search },
  { name: 'mailMore.benLabel', weight: 1, run: benLabel },
  { name: 'mailMore.filter', weight: 2, run: filter },
  { name: 'mailMore.benDraft', weight: 4, run: benDraft },
]
