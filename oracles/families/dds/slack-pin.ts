import type { OracleInput, OracleResult } from '../../types.ts'
import { channelId, entities, nothingElseChanged, slackUserOf, verdict } from '../../predicates.ts'

export type SlackPinParams = { actor: string; channel: string; includes: string; wrong: string[] }

/**
 * Pin one message. Exactly one message became pinned and it is the one asked for (in that channel, its text has the
 * phrase); pinning the near-duplicates too (the draft, the older version, the repost elsewhere) fails, unpinning
 * anything is collateral, and so is every other change (no posts, no edits). Slack's notice of the pin in the channel
 * is allowed when it names the asked message; a notice of another (a wrong pin, even one taken off) is collateral.
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
  // Slack posts a `pinned_item` notice in the channel on each pin and leaves it there when the pin is taken off
  // (0480). The notice of a pin standing at the end goes with that pin (judged by the checks above), and so does one
  // of the asked message (pinned, taken off and pinned again); a notice of another message whose pin was taken off
  // again is the record of a wrong pin, left in the channel though the pin was undone: collateral.
  const targetId = target ? `${target.channel}/${target.ts}` : undefined
  const standing = new Set([...pinned.map((c) => c.id), ...(targetId ? [targetId] : [])])
  const me = slackUserOf(initial, p.actor)
  const ownNotice = (c: { op: string; after?: Record<string, unknown> }) =>
    c.op === 'inserted' &&
    c.after?.subtype === 'pinned_item' &&
    !!me &&
    c.after.user === me &&
    standing.has(String(c.after.pinnedItem))
  const violations = nothingElseChanged(diff, [
    {
      service: 'slack',
      collection: 'messages',
      id: (id, c) =>
        (c.op === 'updated' && pinOnly(id) && Object.keys(c.fields).every((f) => f === 'pinned')) ||
        ownNotice(c as { op: string; after?: Record<string, unknown> }),
    },
  ])
  return verdict(checks, violations, { pinned: pinned.length })
}
