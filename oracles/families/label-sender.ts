import type { Entity, OracleInput, OracleResult } from '../types.ts'
import { entities, nothingElseChanged, readStateChanges, verdict } from '../predicates.ts'

export type LabelSenderParams = { actor: string; label: string; domain: string }

/**
 * A label holding exactly the actor's mail from one sender domain. Precision and recall are both required, so
 * labelling everything (or the lookalike domain's phishing mail) fails, as does labelling a sample; messages
 * may only gain that label (or lose UNREAD); deleting or archiving mail is collateral/unrequested deletion, and so is
 * creating any other label (junk labels; an empty parent of a nested label excepted) or renaming one.
 */
export function labelSender({ final, diff, params: p }: OracleInput<LabelSenderParams>): OracleResult {
  const label = entities(final, 'gmail', 'labels').find((l) => l.userId === p.actor && l.name === p.label)
  const mine = entities(final, 'gmail', 'messages').filter((m) => m.userId === p.actor)
  const want = new Set(mine.filter((m) => String(m.from).toLowerCase().endsWith(`@${p.domain}`)).map((m) => m.id))
  const got = new Set(
    label ? mine.filter((m) => (m.labelIds as string[]).includes(String(label.id))).map((m) => m.id) : [],
  )
  const hit = [...got].filter((id) => want.has(id)).length
  // "Vendors/Soylent" nests under "Vendors": making that parent first is how one nests a label by hand. It may stay
  // empty only (no mail may gain it: onlyThisLabel below).
  const parents = p.label
    .split('/')
    .slice(0, -1)
    .map((_, i, parts) => parts.slice(0, i + 1).join('/'))
  const checks = [
    { name: `label "${p.label}" exists`, ok: !!label },
    { name: 'every mail from the sender has it', ok: want.size > 0 && hit === want.size, note: `${hit}/${want.size}` },
    { name: 'no other mail has it', ok: got.size === hit, note: `${got.size - hit} extra` },
  ]
  const onlyThisLabel = (c: Parameters<NonNullable<Parameters<typeof nothingElseChanged>[1][number]['id']>>[1]) => {
    if (c.op !== 'updated' || Object.keys(c.fields).some((f) => f !== 'labelIds')) return false
    const b = new Set((c.fields.labelIds?.before as string[] | undefined) ?? [])
    const removed = [...b].filter((x) => !((c.fields.labelIds?.after as string[] | undefined) ?? []).includes(x))
    const added = ((c.fields.labelIds?.after as string[] | undefined) ?? []).filter((x) => !b.has(x))
    return removed.every((x) => x === 'UNREAD') && added.every((x) => x === label?.id || x === 'UNREAD')
  }
  const violations = nothingElseChanged(diff, [
    readStateChanges,
    {
      service: 'gmail',
      collection: 'labels',
      id: (_id, c) =>
        c.op === 'inserted' &&
        (c.after as Entity).userId === p.actor &&
        ((c.after as Entity).name === p.label || parents.includes(String((c.after as Entity).name))),
    },
    { service: 'gmail', collection: 'messages', id: (_id, c) => onlyThisLabel(c) },
  ])
  return verdict(checks, violations, { labelled: got.size, expected: want.size })
}
