import type { OracleInput, OracleResult } from '../types.ts'
import { mailOnlyTo, mailSentTo, mailSideEffects, nothingElseChanged, readStateChanges, threadOf, verdict } from '../predicates.ts'

export type ReplyWithFactParams = { actor: string; customer: string; subject: string; answer: string; wrong: string[]; allowed: string[] }

/**
 * In-thread reply carrying a fact found elsewhere in the mailbox. Passes when a sent mail to the customer in the
 * customer's thread contains the answer and none of the near-duplicate wrong answers (keyword stuffing both
 * fails); recipients are limited to the customer and the own domain; nothing but new mail and read marks changes.
 */
export function replyWithFact({ initial, diff, params: p }: OracleInput<ReplyWithFactParams>): OracleResult {
  const thread = threadOf(initial, p.actor, p.customer, p.subject)
  const replies = mailSentTo(diff, p.actor, p.customer, [p.answer])
  const clean = replies.filter((m) => !p.wrong.some((w) => `${m.subject}\n${m.text}`.toLowerCase().includes(w.toLowerCase())))
  const inThread = clean.filter((m) => thread !== undefined && m.threadId === thread)
  const checks = [
    { name: 'reply to the customer contains the answer', ok: replies.length > 0 },
    { name: 'reply contains no wrong (near-duplicate) answer', ok: clean.length > 0 },
    { name: 'reply is in the customer thread', ok: inThread.length > 0 },
  ]
  const violations = [...mailOnlyTo(diff, p.actor, p.allowed), ...nothingElseChanged(diff, [...mailSideEffects, readStateChanges])]
  return verdict(checks, violations, { replies: replies.length })
}
