import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { entities, nothingElseChanged, readStateChanges, recipients, threadOf, verdict } from '../../predicates.ts'
import { deliveredMail, loneDate, mailVisible, namesWrong } from '../../artifacts.ts'
import { commitsTo } from '../../answer.ts'
import { spansFrom } from '../../date-range.ts'
import { readerText } from '../../reader-text.ts'

export type DraftReplyParams = {
  actor: string
  customer: string
  subject: string
  answer: string
  wrong: string[]
  /** Another customer's order number ("#75392") and company: not this customer's business (0463). */
  others?: string[]
}

/**
 * The answer ("10 March") as a date in the year that puts it nearest the thread's last mail (the params carry no
 * year; the dates are days from it), so a draft is read as a date answer is (commitsTo: docs/decisions/0460).
 */
function answerDate(answer: string, thread: Entity[]): string | undefined {
  const md = loneDate(answer)
  const last = Math.max(...thread.map((m) => Date.parse(String(m.internalDate))))
  if (!md || !Number.isFinite(last)) return undefined
  if (md.length !== 5) return md
  const year = new Date(last).getUTCFullYear()
  const near = (y: number) => Math.abs(Date.parse(`${y}-${md}T00:00:00Z`) - last)
  return `${[year - 1, year, year + 1].reduce((a, b) => (near(b) < near(a) ? b : a))}-${md}`
}

const ids = (v: unknown) => String(v ?? '').match(/<[^<>\s]+>/g) ?? []

/**
 * Whether the draft answers a mail of the thread, as a reply does: the mail it answers (In-Reply-To, or else the last
 * id of References, its parent by RFC 5322) is one of the thread's, and neither header names a mail of the mailbox
 * outside the thread. Clients that set References alone are replies too; Gmail threads by either (0466).
 */
function repliesIn(m: Entity, thread: Entity[], mailbox: Entity[]): boolean {
  const own = new Set(thread.map((x) => String(x.messageId ?? '')).filter(Boolean))
  const known = new Set(mailbox.map((x) => String(x.messageId ?? '')).filter(Boolean))
  const [inReplyTo, refs] = [ids(m.inReplyTo), ids(m.references)]
  const parent = inReplyTo.length ? inReplyTo : refs.slice(-1)
  const named = [...inReplyTo, ...refs]
  return parent.length > 0 && parent.every((x) => own.has(x)) && named.every((x) => own.has(x) || !known.has(x))
}

/** An order number ("#75392": the digits, hash or not) or a company name, as a whole word in reader text. */
function namesOther(seen: string, x: string): boolean {
  const digits = /^#(\d+)$/.exec(x)?.[1]
  if (digits) return new RegExp(String.raw`(?<![\d.,])${digits}(?![\d]|[.,]\d)`).test(seen)
  const words = readerText(x).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(String.raw`\b${words}\b`).test(seen)
}

const isDraft = (m: Entity) => Array.isArray(m.labelIds) && (m.labelIds as string[]).includes('DRAFT')

/**
 * Prepare (never send) a reply: exactly one new draft in the actor's mailbox, in the customer's thread, addressed to
 * them, carrying the fact and none of the near-duplicates anywhere a reader will see. Sending anything fails (and the
 * sent mail is collateral); other changes are collateral.
 */
export function draftReply({ initial, final, diff, actions, params: p }: OracleInput<DraftReplyParams>): OracleResult {
  const before = new Set(entities(initial, 'gmail', 'drafts').map((d) => `${d.userId}/${d.id}`))
  const drafts = entities(final, 'gmail', 'drafts').filter(
    (d) => d.userId === p.actor && !before.has(`${d.userId}/${d.id}`),
  )
  const byId = new Map(entities(final, 'gmail', 'messages').map((m) => [`${m.userId}/${m.id}`, m]))
  const msgs = drafts.map((d) => byId.get(`${d.userId}/${d.messageId}`)).filter((m): m is Entity => !!m)
  const [only] = msgs
  const seen = only ? mailVisible(only) : ''
  const thread = threadOf(initial, p.actor, p.customer, p.subject)
  const mailbox = entities(initial, 'gmail', 'messages').filter((m) => m.userId === p.actor)
  const inThread = mailbox.filter((m) => m.threadId === thread)
  const date = answerDate(p.answer, inThread)
  const sent = deliveredMail(initial, final, actions, p.actor).sent
  const checks = [
    { name: 'exactly one new draft', ok: drafts.length === 1 && msgs.length === 1, note: `${drafts.length} drafts` },
    { name: 'it is addressed to the customer', ok: !!only && recipients(only).includes(p.customer.toLowerCase()) },
    { name: 'nobody else is on it', ok: !!only && recipients(only).every((x) => x === p.customer.toLowerCase()) },
    { name: "it is in the customer's thread", ok: !!only && thread !== undefined && only.threadId === thread },
    {
      // In-Reply-To (or References) says which mail it answers: without it the customer's client may not thread it
      // (Gmail's docs ask for it with threadId and the Subject).
      name: "it replies to a mail of the customer's thread",
      ok: !!only && repliesIn(only, inThread, mailbox),
    },
    // Stated, not denied, hedged ("or a week later"), listed with another date (0460) or one end of a span (0463).
    {
      name: 'it carries the fact',
      ok: !!only && !!date && commitsTo(seen, { kind: 'date', date }) && !spansFrom(seen, date),
    },
    { name: 'no near-duplicate anywhere a reader sees', ok: !!only && !p.wrong.some((w) => namesWrong(seen, w)) },
    {
      name: "it names no other customer's order or company",
      ok: !!only && !(p.others ?? []).some((x) => namesOther(seen, x)),
    },
    { name: 'nothing is sent', ok: sent.length === 0, note: `${sent.length} sent` },
  ]
  const draftIds = new Set(drafts.map((d) => `${d.userId}/${d.messageId}`))
  const violations = nothingElseChanged(diff, [
    { service: 'gmail', collection: 'drafts', id: (id, c) => c.op !== 'deleted' && id.startsWith(`${p.actor}/`) },
    {
      service: 'gmail',
      collection: 'messages',
      id: (id, c) =>
        c.op !== 'deleted' &&
        (draftIds.has(id) ||
          (c.op === 'inserted' && isDraft(c.after as Entity) && (c.after as Entity).userId === p.actor)),
    },
    readStateChanges,
  ])
  return verdict(checks, violations, { drafts: drafts.length, sent: sent.length })
}
