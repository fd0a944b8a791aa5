import type { OracleInput, OracleResult } from '../types.ts'
import { channelId, entities, nothingElseChanged, slackPosted, slackUserOf, verdict } from '../predicates.ts'
import { slackPosts } from './slack-thread-answer.ts'

export type ActionItemsParams = { actor: string; channel: string; items: { owner: string; task: string }[]; staleTasks: string[]; reminderIncludes: string }

/**
 * Post a document's action items in a channel, each with its owner mentioned, and set oneself a follow-up
 * reminder. Items from the older near-duplicate notes must not appear (posting everything fails); a reminder
 * must be new, for the actor, in the future and about the follow-up; nothing but new posts and reminders may change.
 */
export function actionItems({ initial, diff, params: p }: OracleInput<ActionItemsParams>): OracleResult {
  const me = slackUserOf(initial, p.actor)
  const ch = channelId(initial, p.channel)
  const text = slackPosted(diff, me).filter((m) => m.channel === ch).map((m) => String(m.text ?? '')).join('\n')
  const lower = text.toLowerCase()
  const covered = p.items.filter((i) => lower.includes(i.task.toLowerCase()))
  const mentioned = p.items.filter((i) => { const u = slackUserOf(initial, i.owner); return u && text.includes(`<@${u}>`) })
  const reminders = diff.filter((c) => c.op === 'inserted' && c.service === 'slack' && c.collection === 'reminders').map((c) => (c as { after: Record<string, unknown> }).after)
  const goodReminder = reminders.some((r) => r.user === me && Number(r.time) * 1000 > initial.clockMs && String(r.text).toLowerCase().includes(p.reminderIncludes.toLowerCase()))
  const checks = [
    { name: 'every action item is posted', ok: covered.length === p.items.length, note: `${covered.length}/${p.items.length}` },
    { name: 'every owner is mentioned', ok: mentioned.length === p.items.length, note: `${mentioned.length}/${p.items.length}` },
    { name: 'no stale item from the old notes', ok: !p.staleTasks.some((t) => lower.includes(t.toLowerCase())) },
    { name: 'a follow-up reminder is set for yourself', ok: goodReminder },
  ]
  const existing = new Set(Object.keys(initial.services.slack?.entities.reminders ?? {}))
  return verdict(checks, nothingElseChanged(diff, [...slackPosts(me), { service: 'slack', collection: 'reminders', id: (id, c) => c.op === 'inserted' && !existing.has(id) }]), { itemsPosted: covered.length, reminders: entities(initial, 'slack', 'reminders').length })
}
