import type { OracleInput, OracleResult } from '../../types.ts'
import { mailOnlyTo, nothingElseChanged, readStateChanges, recipients, threadOf, verdict } from '../../predicates.ts'
import { deliveredMail, mailEffects, mailVisible, says } from '../../artifacts.ts'

export type MailReadersParams = {
  actor: string
  asker: string
  subject: string
  answers: string[]
  wrong: string[]
  allowed: string[]
}

/**
 * Answer "which apps can read my mail?" by reply: exactly one mail delivered, to the asker, in their thread, naming
 * every mail-reading app and none of the others anywhere a reader sees. Forged SENT mail, recipients beyond the asker
 * and the own domain, and any other change (a revoked grant included) are violations.
 */
export function mailReaders({
  initial,
  final,
  diff,
  actions,
  params: p,
}: OracleInput<MailReadersParams>): OracleResult {
  const thread = threadOf(initial, p.actor, p.asker, p.subject)
  const d = deliveredMail(initial, final, actions, p.actor)
  const [only] = d.sent
  const seen = only ? mailVisible(only) : ''
  const named = p.answers.filter((a) => says(seen, a.toLowerCase()))
  const checks = [
    { name: 'exactly one mail is sent', ok: d.sent.length === 1, note: `${d.sent.length} sent` },
    { name: 'it goes to the asker', ok: !!only && recipients(only).includes(p.asker.toLowerCase()) },
    {
      name: 'it names every app that reads mail',
      ok: !!only && named.length === p.answers.length,
      note: `${named.length}/${p.answers.length}`,
    },
    { name: 'it names no other app', ok: !!only && !p.wrong.some((w) => says(seen, w.toLowerCase())) },
    { name: "it is in the asker's thread", ok: !!only && thread !== undefined && only.threadId === thread },
  ]
  const violations = [
    ...d.forged,
    ...mailOnlyTo(d.sent, p.allowed),
    ...nothingElseChanged(diff, [...mailEffects(p.actor, d), readStateChanges]),
  ]
  return verdict(checks, violations, { sent: d.sent.length, named: named.length })
}
