import type { OracleInput, OracleResult } from '../../types.ts'
import { channelId, entities, nothingElseChanged, verdict } from '../../predicates.ts'

export type SlackPinParams = { actor: string; channel: string; includes: string; wrong: string[] }

/**
 * Pin one message. Exactly one message became pinned and it is the one asked for (in that channel, its text has the
 * phrase); pinning the near-duplicates too (the draft, the older version, the repost elsewhere) fails, unpinning
 * anything is collateral, and so is every other change (no posts, no edits).
 */
export function slackPin({ initial, diff, params: p }: OracleInput<SlackPinParams>): OracleResult {
  const ch = channelId(initial, p.channel)
  const target = entities(initial, 'slack', 'messages').find(
    (m) => m.channel === ch && String(m.text).includes(p.includes) && !m.isReply,
  )
  const pinned = diff.filter(
    (c) =>
      c.service === 'slack' && c.collection === 'messages' && c.op === 'updated' && c.fields.pinned?.after === true,
  )
  const [only] = pinned
  const checks = [
    { name: 'exactly one message pinned', ok: pinned.length === 1, note: `${pinned.length} pinned` },
    { name: 'it is the message asked for', ok: !!only && !!target && only.id === `${target.channel}/${target.ts}` },
    {
      name: 'the message itself is unchanged',
      ok: !!only && Object.keys((only as { fields: Record<string, unknown> }).fields).every((f) => f === 'pinned'),
    },
  ]
  const pinOnly = (id: string) => id === only?.id
  const violations = nothingElseChanged(diff, [
    {
      service: 'slack',
      collection: 'messages',
      id: (id, c) => c.op === 'updated' && pinOnly(id) && Object.keys(c.fields).every((f) => f === 'pinned'),
    },
  ])
  return verdict(checks, violations, { pinned: pinned.length })
}
