import type { WorldState } from '../envs/core/diff.ts'
import { wroteWorld, type Entity, type OracleInput } from './types.ts'
import { slackArgs } from './post-versions.ts'

/** Who read a Slack channel at some moment from `atMs` (epoch ms on the world's clock) to the end. */
export type MembersSince = (channel: unknown, atMs: number) => string[]
/** Who read what the actor put in a channel: its members from its arrival on (`channelMembers`). */
export type ChannelReaders = (channel: unknown) => string[]
/**
 * Who read what the actor put in a channel by calls of the kinds `ops` (operation id prefixes): its members from the
 * first such call naming the channel or one of `items`, the things of that channel the calls name (a canvas id).
 */
export type ReadersFrom = (channel: unknown, ops: readonly string[], items?: readonly string[]) => string[]
/** The arguments by which a Slack call names a channel or a thing in one. */
const NAMING = ['channels', 'channel', 'channel_id', 'channel_ids', 'canvas_id']

const INVITES: Record<string, [channel: string, users: string]> = {
  'conversations.invite': ['channel', 'users'],
  'admin.conversations.invite': ['channel_id', 'user_ids'],
}
const KICKS: Record<string, [channel: string, user: string]> = {
  'conversations.kick': ['channel', 'user'],
  'admin.conversations.kick': ['channel_id', 'user_id'],
}
const ids = (v: unknown): string[] =>
  (Array.isArray(v) ? v : String(v ?? '').split(','))
    // A list given as JSON text ('["C1","C2"]', as canvases.access.set takes it).
    .map((u) => String(u).replace(/^[\s["]+|[\s"\]]+$/g, ''))
    .filter((u) => u !== '')

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
 * - `readersFrom(channel, ops, items)`: `since` from the actor's first call of a kind naming the channel (the dump
 *   keeps no time for a Slack file, canvas, bookmark or name), or from the start; `fileReaders` for files (0447),
 *   canvases, bookmarks and private channels' names (0451) alike.
 */
export function channelMembers(
  input: OracleInput,
  actor: string,
): { seenBy: WorldState; since: MembersSince; fileReaders: ChannelReaders; readersFrom: ReadersFrom } {
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
  // What the actor put in a channel reached it no earlier than the actor's first call of its kind naming the channel
  // (a file upload or share, a canvas made or edited, a bookmark added, a rename); the dump keeps no time for these.
  // With none, every member of the episode read it.
  const readersFrom: ReadersFrom = (channel, ops, items = []) => {
    const names = new Set([String(channel), ...items])
    for (const a of input.actions) {
      const op = String(a.operationId)
      if (a.userId !== actor || !ops.some((o) => op.startsWith(o)) || !wroteWorld(a)) continue
      const args = slackArgs(a) ?? {}
      if (NAMING.some((k) => ids(args[k]).some((id) => names.has(id)))) return since(channel, a.atMs)
    }
    return since(channel, -Infinity)
  }
  const fileReaders = (channel: unknown) => readersFrom(channel, ['files.'])
  const slack = input.final.services.slack
  if (!more.size || !slack?.entities.channels) return { seenBy: input.final, since, fileReaders, readersFrom }
  const channels = { ...slack.entities.channels }
  for (const [id, users] of more) {
    const c = channels[id] as Entity | undefined
    if (!c) continue
    const now = (c.members as string[] | undefined) ?? []
    const added = [...users].filter((u) => !now.includes(u))
    if (added.length) channels[id] = { ...c, members: [...now, ...added] }
  }
  const widened = { ...slack, entities: { ...slack.entities, channels } }
  const seenBy = { ...input.final, services: { ...input.final.services, slack: widened } }
  return { seenBy, since, fileReaders, readersFrom }
}
