import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { entities, nothingElseChanged, readStateChanges, recipients, threadOf, verdict } from '../../predicates.ts'
import { deliveredMail, mailVisible, namesWrong, says } from '../../artifacts.ts'

export type DraftReplyParams = { actor: string; customer: string; subject: string; answer: string; wrong: string[] }

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
  const sent = deliveredMail(initial, final, actions, p.actor).sent
  const checks = [
    { name: 'exactly one new draft', ok: drafts.length === 1 && msgs.length === 1, note: `${drafts.length} drafts` },
    { name: 'it is addressed to the customer', ok: !!only && recipients(only).includes(p.customer.toLowerCase()) },
    { name: 'nobody else is on it', ok: !!only && recipients(only).every((x) => x === p.customer.toLowerCase()) },
    { name: "it is in the customer's thread", ok: !!only && thread !== undefined && only.threadId === thread },
    { name: 'it carries the fact', ok: !!only && says(seen, p.answer) },
    { name: 'no near-duplicate anywhere a reader sees', ok: !!only && !p.wrong.some((w) => namesWrong(seen, w)) },
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
