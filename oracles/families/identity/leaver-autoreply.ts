import type { ActionRow, Entity, OracleInput, OracleResult, Violation } from '../../types.ts'
import { entities, nothingElseChanged, readStateChanges, verdict } from '../../predicates.ts'

export type LeaverAutoReplyParams = {
  actor: string
  leaverName: string
  managerName: string
  endDay: string
  now: string
}

type Member = { email: string; role: string; type: string }
const membersOf = (g: Entity | undefined) => (g?.members ?? []) as Member[]
const DAY = 86_400_000

/**
 * A leaver in their notice period: the account stays active (suspended accounts receive no mail, so an auto-reply on
 * one never fires), the leaver's own Gmail auto-reply (set through domain-wide delegation: an admin cannot set another
 * user's responder otherwise) is on now, runs through the end date and not past the day after it, reaches senders
 * outside the company, and names the manager's address; the leaver is in no group and has no connected app. Only
 * the leaver's vacation setting, their group memberships and their grants may change; a suspended or deleted leaver
 * fails, and a deleted account is an `unrequested_delete`. Service-account keys left behind are collateral.
 */
export function leaverAutoReply(input: OracleInput<LeaverAutoReplyParams>): OracleResult {
  const { initial, final, diff, actions, params: p } = input
  const users = entities(initial, 'identity', 'users')
  const leaver = users.find((u) => u.name === p.leaverName)
  const manager = users.find((u) => u.name === p.managerName)
  const id = String(leaver?.userId ?? '')
  const email = String(leaver?.email ?? '').toLowerCase()
  const after = entities(final, 'identity', 'users').find((u) => u.userId === id)
  const v = (final.services.gmail?.entities.settings?.[`${id}/vacation`] ?? {}) as Record<string, unknown>
  const body = `${v.responseBodyPlainText ?? ''} ${v.responseBodyHtml ?? ''}`.toLowerCase()
  const now = Date.parse(p.now)
  const endDay = Date.parse(`${p.endDay}T00:00:00Z`)
  const start = v.startTime === undefined ? -Infinity : Number(v.startTime)
  const end = v.endTime === undefined ? NaN : Number(v.endTime)
  const groupsAfter = new Map(entities(final, 'identity', 'groups').map((g) => [String(g.email), g]))
  const stillIn = [...groupsAfter.values()].filter((g) => membersOf(g).some((m) => m.email === email))
  const sameOthers = (g: Entity) =>
    JSON.stringify(membersOf(groupsAfter.get(String(g.email)))) ===
    JSON.stringify(membersOf(g).filter((m) => m.email !== email))
  const grantsLeft = entities(final, 'identity', 'grants').filter((g) => g.userId === id)
  const checks = [
    { name: 'the leaver and the manager exist', ok: leaver !== undefined && manager !== undefined },
    { name: "the leaver's auto-reply is enabled", ok: leaver !== undefined && v.enableAutoReply === true },
    { name: 'it is on now', ok: start <= now + DAY / 2 },
    { name: 'it runs through the end date', ok: end >= endDay + DAY / 2 },
    { name: 'it stops by the day after the end date', ok: end <= endDay + 2 * DAY },
    { name: 'senders outside the company get it', ok: v.restrictToDomain !== true && v.restrictToContacts !== true },
    { name: "it gives the manager's address", ok: !!manager && body.includes(String(manager.email).toLowerCase()) },
    { name: 'the account stays active (not suspended)', ok: after?.suspended === false },
    { name: 'the account is not deleted', ok: after !== undefined && after.deleted === false },
    {
      name: 'the leaver is in no group',
      ok: leaver !== undefined && stillIn.length === 0,
      note: `${stillIn.length} left`,
    },
    { name: 'no app is connected to the leaver', ok: leaver !== undefined && grantsLeft.length === 0 },
    { name: 'one auto-reply was switched on, not several tried', ok: enabledReplies(actions, id).size <= 1 },
  ]
  const deleted: Violation[] = diff
    .filter(
      (c) =>
        c.service === 'identity' && c.collection === 'users' && c.op === 'updated' && c.fields.deleted?.after === true,
    )
    .map((c) => ({ kind: 'unrequested_delete', message: `user ${c.id} was deleted` }))
  const violations: Violation[] = [
    ...deleted,
    ...nothingElseChanged(diff, [
      readStateChanges,
      { service: 'gmail', collection: 'settings', id: (key) => key === `${id}/vacation` },
      // Suspending or deleting the leaver already fails a check; it is not counted twice as collateral. Any other
      // change to their account (made an admin, renamed, a new address, another org unit) was not asked.
      {
        service: 'identity',
        collection: 'users',
        id: (uid, c) =>
          uid === id && c.op === 'updated' && Object.keys(c.fields).every((f) => f === 'suspended' || f === 'deleted'),
      },
      {
        service: 'identity',
        collection: 'grants',
        id: (_k, c) => c.op === 'deleted' && (c.before as Entity).userId === id,
      },
      {
        service: 'identity',
        collection: 'groups',
        id: (_k, c) => c.op === 'updated' && sameOthers(c.before as Entity),
      },
      // The delegated tokens minted to act as the leaver (bookkeeping of the grant, not a change anyone sees).
      { service: 'identity', collection: 'delegatedTokens', id: (key) => key.startsWith(`${id} `) },
    ]),
  ]
  return verdict(checks, violations, { groupsLeft: stillIn.length, appsLeft: grantsLeft.length })
}

/** The distinct bodies of successful vacation updates that switched the leaver's responder on. */
function enabledReplies(actions: ActionRow[], userId: string): Set<string> {
  const seen = new Set<string>()
  for (const a of actions) {
    if (a.userId !== userId || a.operationId !== 'gmail.users.settings.updateVacation') continue
    if (a.status < 200 || a.status >= 300 || !a.body) continue
    try {
      const v = JSON.parse(a.body) as Record<string, unknown>
      if (v.enableAutoReply === true) seen.add(`${String(v.startTime ?? '')}/${String(v.endTime ?? '')}`)
    } catch {
      // not JSON: the server refused it
    }
  }
  return seen
}
