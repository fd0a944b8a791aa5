import type { Entity, OracleInput, OracleResult } from '../types.ts'
import { channelId, entities, nothingElseChanged, slackPosted, slackUserOf, verdict } from '../predicates.ts'
import { says, showsInChannel, slackMentions, slackPinged, slackVisible } from '../artifacts.ts'
import { slackPosts } from './slack-thread-answer.ts'

export type ActionItemsParams = {
  actor: string
  channel: string
  items: { owner: string; task: string }[]
  staleTasks: string[]
  reminderIncludes: string
}

/**
 * Post a document's action items in one post in a channel, each with its owner mentioned, and set oneself exactly one
 * follow-up reminder. Posting twice fails, posts in other channels are also collateral, every
 * part a reader sees is read, items from the older near-duplicate notes must not appear anywhere (posting both
 * documents fails), nobody but the owners is mentioned; the reminder must be new, for the actor, in the future
 * and about the follow-up. Nothing else may change.
 */
export function actionItems({ initial, final, diff, params: p }: OracleInput<ActionItemsParams>): OracleResult {
  const me = slackUserOf(initial, p.actor)
  const ch = channelId(initial, p.channel)
  const posts = slackPosted(diff, me)
  const seen = posts.map(slackVisible).join('\n')
  const named = new Set(posts.flatMap((m) => [...slackMentions(m)]))
  const pinged = new Set(posts.flatMap((m) => [...slackPinged(final, m)]))
  const owners = p.items.map((i) => slackUserOf(initial, i.owner))
  const covered = p.items.filter((i) => says(seen, i.task))
  const existing = new Set(Object.keys(initial.services.slack?.entities.reminders ?? {}))
  const reminders = diff
    .filter((c) => c.op === 'inserted' && c.service === 'slack' && c.collection === 'reminders')
    .map((c) => (c as { after: Entity }).after)
  const good = (r: Entity) =>
    r.user === me && Number(r.time) * 1000 > initial.clockMs && says(String(r.text).toLowerCase(), p.reminderIncludes)
  const checks = [
    {
      name: `exactly one post, in #${p.channel}`,
      ok: posts.length === 1 && posts[0]!.channel === ch,
      note: `${posts.length} posts`,
    },
    { name: 'it shows in the channel, not in an old thread', ok: posts.length === 1 && showsInChannel(posts[0]!) },
    {
      name: 'every action item is posted',
      ok: covered.length === p.items.length,
      note: `${covered.length}/${p.items.length}`,
    },
    { name: 'every owner is mentioned', ok: owners.every((u) => !!u && named.has(u)) },
    { name: 'nobody else is mentioned', ok: [...pinged].every((u) => owners.includes(u)), everyVersion: true as const },
    {
      name: 'no stale item from the old notes',
      ok: !p.staleTasks.some((t) => says(seen, t)),
      everyVersion: true as const,
    },
    {
      name: 'exactly one follow-up reminder, for yourself, in the future',
      ok: reminders.length === 1 && good(reminders[0]!),
      note: `${reminders.length} reminders`,
    },
  ]
  const violations = nothingElseChanged(diff, [
    ...slackPosts(me, (m) => m.channel === ch),
    { service: 'slack', collection: 'reminders', id: (id, c) => c.op === 'inserted' && !existing.has(id) },
  ])
  return verdict(checks, violations, {
    itemsPosted: covered.length,
    reminders: entities(initial, 'slack', 'reminders').length,
  })
}
