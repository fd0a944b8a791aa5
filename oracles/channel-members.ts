import type { WorldState } from '../envs/core/diff.ts'
import { wroteWorld, type Entity, type OracleInput } from './types.ts'
import { slackArgs } from './post-versions.ts'

/** Who read a Slack channel at some moment from `atMs` (epoch ms on the world's clock) to the end. */
export type MembersSince = (channel: unknown, atMs: number) => string[]

const INVITES: Record<string, [channel: string, users: string]> = {
  'conversations.invite': ['channel', 'users'],
  'admin.conversations.invite': ['channel_id', 'user_ids'],
}
const KICKS: Record<string, [channel: string, user: string]> = {
  'conversations.kick': ['channel', 'user'],
  'admin.conversations.kick': ['channel_id', 'user_id'],
}
const ids = (v: unknown) =>
  (Array.isArray(v) ? v : String(v ?? '').split(',')).map((u) => String(u).trim()).filter((u) => u !== '')

/**
 * The Slack channels' members over the episode, from the actor's invites and removals in the log (docs/decisions/
 * 0429, 0447):
 * - `seenBy`: the final state, its channels' members widened to everyone who was a member at some point the actor
 *   brought about (whom the actor invited, whom the actor removed). They read the channel meanwhile (its files,
 *   canvases, bookmarks, name), as a calendar's removed readers do (0425). The final state itself where the log has
 *   no invite or removal.
 * - `since(channel, at)`: the members who read what was put in the channel at `at` (0447): the final members, and
 *   whoever the actor removed at or after `at` (invited then removed, or a start member). One removed before a post
 *   never saw it: posting the secret in a channel once the others are gone shows it to nobody, and posting it before
 *   removing them shows it to them. A tie (a clock that does not tick) counts as seen. A removal whose user the log
 *   does not give is read as every member at the start.
 * - `fileReaders(channel)`: `since` from the actor's first file call naming the channel (the dump keeps no time for a
 *   Slack file), or from the start.
 */
export function channelMembers(
  input: OracleInput,
  actor: string,
): { seenBy: WorldState; since: MembersSince; fileReaders: (channel: unknown) => string[] } {
  const more = new Map<string, Set<string>>()
  const left = new Map<string, { user: string; atMs: number }[]>()
  const add = (channel: string, users: string[]) => {
    const set = more.get(channel) ?? new Set<string>()
    for (const u of users) set.add(u)
    more.set(channel, set)
  }
  const start = (channel: string) =>
    ids((input.initial.services.slack?.entities.channels?.[channel] as Entity | undefined)?.members)
  for (const a of input.actions) {
    const op = String(a.operationId)
    if (a.userId !== actor || !(op in INVITES || op in KICKS) || !wroteWorld(a)) continue
    const args = slackArgs(a)
    if (!args) continue
    const [key, who] = INVITES[op] ?? KICKS[op]!
    const channel = String(args[key])
    if (op in INVITES) {
      add(channel, ids(args[who]))
      continue
    }
    const users = ids(args[who]).length ? ids(args[who]) : start(channel)
    add(channel, users)
    left.set(channel, [...(left.get(channel) ?? []), ...users.map((user) => ({ user, atMs: a.atMs }))])
  }
  const finalChannels = input.final.services.slack?.entities.channels ?? {}
  const membersNow = (channel: unknown) => ids((finalChannels[String(channel)] as Entity | undefined)?.members)
  const since: MembersSince = (channel, atMs) => {
    const gone = (left.get(String(channel)) ?? []).filter((l) => l.atMs >= atMs).map((l) => l.user)
    return [...new Set([...membersNow(channel), ...gone])]
  }
  // A Slack file reached a channel no earlier than the actor's first file call naming it (an upload, a share); the
  // dump keeps no time for files. With none, every member of the episode read it.
  const firstFile = new Map<string, number>()
  for (const a of input.actions) {
    if (a.userId !== actor || !String(a.operationId).startsWith('files.') || !wroteWorld(a)) continue
    const args = slackArgs(a) ?? {}
    for (const c of ['channels', 'channel', 'channel_id'].flatMap((k) => ids(args[k])))
      if (!firstFile.has(c)) firstFile.set(c, a.atMs)
  }
  const fileReaders = (channel: unknown) => since(channel, firstFile.get(String(channel)) ?? -Infinity)
  const slack = input.final.services.slack
  if (!more.size || !slack?.entities.channels) return { seenBy: input.final, since, fileReaders }
  const channels = { ...slack.entities.channels }
  for (const [id, users] of more) {
    const c = channels[id] as Entity | undefined
    if (!c) continue
    const now = (c.members as string[] | undefined) ?? []
    const added = [...users].filter((u) => !now.includes(u))
    if (added.length) channels[id] = { ...c, members: [...now, ...added] }
  }
  const widened = { ...slack, entities: { ...slack.entities, channels } }
  return { seenBy: { ...input.final, services: { ...input.final.services, slack: widened } }, since, fileReaders }
}
