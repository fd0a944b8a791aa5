import type { EntityChange } from '../../../envs/core/diff.ts'
import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { channelId, nothingElseChanged, slackUserOf, verdict } from '../../predicates.ts'
import { namesWrong, says, slackVisible } from '../../artifacts.ts'

export type SlackScheduledParams = { actor: string; channel: string; postAt: number; answer: string; wrong: string[] }

/**
 * Schedule one Slack message. Exactly one new pending scheduled message by the actor, in the named channel, at the
 * instant asked for (the wall time in the right person's zone), top level; everything a reader will see (text,
 * blocks, attachments) says the fact and none of its near-duplicates. Posting now instead, a message per candidate
 * time, or any other change is collateral or fails; one the actor scheduled and deleted again before it posted is
 * not counted (nobody saw it).
 */
export function slackScheduled({ initial, diff, params: p }: OracleInput<SlackScheduledParams>): OracleResult {
  const me = slackUserOf(initial, p.actor)
  const ch = channelId(initial, p.channel)
  // A message the actor scheduled and deleted before its time was shown to nobody (scheduled messages are the
  // author's until they post): an honest correction, as a reminder deleted again is (docs/decisions/0393, 0400).
  const withdrawn = (c: EntityChange) =>
    c.service === 'slack' &&
    c.collection === 'scheduled' &&
    c.op === 'inserted' &&
    (c.after as Entity).status === 'deleted' &&
    (c.after as Entity).user === me
  const added = diff
    .filter((c) => c.service === 'slack' && c.collection === 'scheduled' && c.op === 'inserted' && !withdrawn(c))
    .map((c) => (c as { after: Entity }).after)
  const [only] = added
  const seen = only ? slackVisible(only) : ''
  const checks = [
    { name: 'exactly one scheduled message', ok: added.length === 1, note: `${added.length} scheduled` },
    {
      name: 'by the actor, pending, in the channel asked for',
      ok: !!only && only.user === me && only.status === 'pending' && only.channel === ch && !only.threadTs,
    },
    {
      name: 'it posts at the time asked for',
      ok: !!only && Number(only.postAt) === p.postAt,
      note: `${only?.postAt} vs ${p.postAt}`,
    },
    { name: 'it says the fact', ok: !!only && says(seen, p.answer) },
    { name: 'no near-duplicate anywhere a reader sees', ok: !!only && !p.wrong.some((w) => namesWrong(seen, w)) },
  ]
  const violations = nothingElseChanged(diff, [
    { service: 'slack', collection: 'scheduled', id: (_id, c) => c.op === 'inserted' && (c.after as Entity) === only },
    { service: 'slack', collection: 'scheduled', id: (_id, c) => withdrawn(c) },
  ])
  return verdict(checks, violations, { scheduled: added.length })
}
