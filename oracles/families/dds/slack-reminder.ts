import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { nothingElseChanged, slackUserOf, verdict } from '../../predicates.ts'

export type SlackReminderParams = { actor: string; time: number; about: string; wrongTimes: number[] }

/**
 * Set one Slack reminder for yourself at an instant. Exactly one new reminder, for the actor, at that instant (epoch
 * seconds; the right wall time in another zone, or a near-duplicate deadline, fails), once (no series), still to
 * fire (not marked complete), whose text says what it is about. A reminder per candidate time fails (more than
 * one); any other change (posts, deleting existing reminders) is collateral.
 */
export function slackReminder({ initial, diff, params: p }: OracleInput<SlackReminderParams>): OracleResult {
  const me = slackUserOf(initial, p.actor)
  const added = diff
    .filter((c) => c.service === 'slack' && c.collection === 'reminders' && c.op === 'inserted')
    .map((c) => (c as { after: Entity }).after)
  const [only] = added
  const checks = [
    { name: 'exactly one new reminder', ok: added.length === 1, note: `${added.length} reminders` },
    { name: 'it is for the actor', ok: !!only && only.user === me },
    {
      name: 'it fires at the deadline asked for',
      ok: !!only && Number(only.time) === p.time,
      note: `${only?.time} vs ${p.time}`,
    },
    // A reminder marked complete never fires, and a series (`recurrence`) fires again every period; both paid 1 where
    // its (next) time was the one asked for (docs/decisions/0455).
    { name: 'it is still to fire, not marked complete', ok: !!only && !Number(only.completeTs ?? 0) },
    { name: 'it fires once, not as a series', ok: !!only && !only.recurrence },
    {
      name: 'its text says what it is about',
      ok: !!only && String(only.text).toLowerCase().includes(p.about.toLowerCase()),
    },
  ]
  const violations = nothingElseChanged(diff, [
    { service: 'slack', collection: 'reminders', id: (_id, c) => c.op === 'inserted' && (c.after as Entity) === only },
  ])
  return verdict(checks, violations, { reminders: added.length, offBySeconds: only ? Number(only.time) - p.time : -1 })
}
