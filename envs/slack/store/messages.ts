import { stmt, type Db } from '../../core/db.ts'
import { slackId, slackTs } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import {
  addMember,
  allUsers,
  membersOf,
  channelById,
  isMember,
  messageAt,
  nowSec,
  userById,
  type ChannelRow,
  type MessageRow,
  type UserRow,
} from './core.ts'
import { mayPost } from './prefs.ts'
import { assertNoBarrier } from './barriers.ts'
import { replaceBeforeLastGt } from '../../core/html-linear.ts'

/** What a new message carries. */
export type NewMessage = {
  channelId: string
  userId: string
  botId?: string | null
  text: string
  blocks?: unknown
  attachments?: unknown
  threadTs?: string | null
  replyBroadcast?: boolean
  subtype?: string | null
  files?: string[]
  ts?: string
  /** Subtype fields shown on the message (`topic`, `inviter`, `old_name`, …). */
  meta?: Record<string, unknown>
  /** Message metadata `{event_type, event_payload}`, checked (routes/metadata.ts). */
  metadata?: Record<string, unknown>
  /** The name a bot's post is shown under. */
  username?: string
}

/** Stores a message with a fresh ts from the world clock (or the given one) and returns its row. */
export function insertMessage(db: Db, m: NewMessage): MessageRow {
  return messageAt(db, m.channelId, writeMessage(db, m))!
}

/** insertMessage without reading the row back (seeding): returns the new message's ts. */
export function writeMessage(db: Db, m: NewMessage): string {
  const ts = m.ts ?? slackTs(db)
  stmt(
    db,
    `INSERT INTO slack_messages (channel_id, ts, user_id, bot_id, subtype, text, blocks, attachments, files, thread_ts,
       reply_broadcast, meta, metadata, username) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    m.channelId,
    ts,
    m.userId,
    m.botId ?? null,
    m.subtype ?? null,
    m.text,
    m.blocks === undefined || m.blocks === null ? null : JSON.stringify(m.blocks),
    m.attachments === undefined || m.attachments === null ? null : JSON.stringify(m.attachments),
    m.files && m.files.length > 0 ? JSON.stringify(m.files) : null,
    m.threadTs ?? null,
    m.replyBroadcast ? 1 : 0,
    m.meta && Object.keys(m.meta).length > 0 ? JSON.stringify(m.meta) : null,
    m.metadata ? JSON.stringify(m.metadata) : null,
    m.username || null,
  )
  const share = stmt(db, 'INSERT OR IGNORE INTO slack_file_shares (file_id, channel_id, ts) VALUES (?, ?, ?)')
  for (const f of m.files ?? []) share.run(f, m.channelId, ts)
  if (m.threadTs)
    stmt(db, 'UPDATE slack_messages SET thread_ts = ? WHERE channel_id = ? AND ts = ? AND thread_ts IS NULL').run(
      m.threadTs,
      m.channelId,
      m.threadTs,
    )
  return ts
}

/** Finds the conversation a `channel` argument names: an id, `#name`/name, or a user id (their DM). */
export function resolveTarget(db: Db, channel: string, sender: UserRow): ChannelRow | undefined {
  if (/^[UW][A-Z0-9]+$/.test(channel)) {
    const other = userById(db, channel)
    if (!other) return undefined
    return openIm(db, sender.id, other.id)
  }
  const byId = channelById(db, channel)
  if (byId) return byId
  const name = channel.replace(/^#/, '').toLowerCase()
  return stmt(db, "SELECT * FROM slack_channels WHERE name = ? AND kind IN ('channel','group')").get(name) as
    ChannelRow | undefined
}

/** The IM between two users, created on first use. */
export function openIm(db: Db, a: string, b: string): ChannelRow {
  assertNoBarrier(db, [a, b], 'im')
  const existing = stmt(
    db,
    `SELECT c.* FROM slack_channels c WHERE c.kind = 'im'
       AND EXISTS (SELECT 1 FROM slack_members m WHERE m.channel_id = c.id AND m.user_id = ?)
       AND EXISTS (SELECT 1 FROM slack_members m WHERE m.channel_id = c.id AND m.user_id = ?)
       AND (SELECT COUNT(*) FROM slack_members m WHERE m.channel_id = c.id) = ?`,
  ).get(a, b, a === b ? 1 : 2) as ChannelRow | undefined
  if (existing) return existing
  const id = slackId(db, 'D')
  const now = nowSec(db)
  stmt(db, "INSERT INTO slack_channels (id, name, kind, creator, created, updated) VALUES (?, ?, 'im', ?, ?, ?)").run(
    id,
    id,
    a,
    now,
    now * 1000,
  )
  addMember(db, id, a)
  addMember(db, id, b)
  return channelById(db, id)!
}

/** The MPIM among a set of users (3+ including the caller), created on first use. */
export function openMpim(db: Db, ids: string[]): ChannelRow {
  assertNoBarrier(db, ids, 'mpim')
  const sorted = [...new Set(ids)].sort()
  const handles = sorted.map((id) => userById(db, id)!.handle)
  const name = `mpdm-${handles.join('--')}-1`
  const existing = stmt(db, "SELECT * FROM slack_channels WHERE kind = 'mpim' AND name = ?").get(name) as
    ChannelRow | undefined
  if (existing) return existing
  const id = slackId(db, 'C')
  const now = nowSec(db)
  stmt(
    db,
    "INSERT INTO slack_channels (id, name, kind, creator, created, updated, purpose) VALUES (?, ?, 'mpim', ?, ?, ?, ?)",
  ).run(id, name, ids[0], now, now * 1000, `Group messaging with: ${handles.map((h) => `@${h}`).join(' ')}`)
  for (const u of sorted) addMember(db, id, u)
  return channelById(db, id)!
}

/** Checks that `user` may post into `ch` (membership, archive state). */
export function assertCanPost(db: Db, ch: ChannelRow, user: UserRow) {
  if (ch.kind !== 'channel' && !isMember(db, ch.id, user.id)) throw new SlackApiError('channel_not_found')
  if (ch.is_archived) throw new SlackApiError('is_archived')
  if (!isMember(db, ch.id, user.id)) throw new SlackApiError('not_in_channel')
  // Posting restrictions set by admin.conversations.setConversationPrefs (who_can_post).
  if (!mayPost(ch, user)) throw new SlackApiError('restricted_action')
  if (ch.kind === 'im' || ch.kind === 'mpim') assertNoBarrier(db, membersOf(db, ch.id), ch.kind)
}

/** A channel event Slack records as a system message, with the documented fields of its subtype. */
export type ChannelEvent =
  | { subtype: 'channel_join'; inviter?: string }
  | { subtype: 'channel_leave' }
  | { subtype: 'channel_topic'; topic: string }
  | { subtype: 'channel_purpose'; purpose: string }
  | { subtype: 'channel_name'; old_name: string; name: string }
  | { subtype: 'channel_archive' }
  | { subtype: 'channel_unarchive' }
  | { subtype: 'channel_convert_to_private' | 'channel_convert_to_public' }

/** The text Slack writes for a channel event by `user`. */
function eventText(user: string, e: ChannelEvent): string {
  switch (e.subtype) {
    case 'channel_join':
      return `<@${user}> has joined the channel`
    case 'channel_leave':
      return `<@${user}> has left the channel`
    case 'channel_topic':
      return `<@${user}> set the channel topic: ${e.topic}`
    case 'channel_purpose':
      return `<@${user}> set the channel purpose: ${e.purpose}`
    case 'channel_name':
      return `<@${user}> has renamed the channel from "${e.old_name}" to "${e.name}"`
    case 'channel_archive':
      return `<@${user}> archived the channel`
    case 'channel_unarchive':
      return `<@${user}> un-archived the channel`
    case 'channel_convert_to_private':
      return 'made this channel private'
    case 'channel_convert_to_public':
      return 'made this channel public'
  }
}

/**
 * Posts the system message Slack writes on a channel event (join, leave, topic, purpose, rename, archive), with the
 * subtype's documented fields: `inviter` on an invited join, `topic`, `purpose`, `name` + `old_name`, and the
 * `members` of a channel being archived. IMs get none.
 * @see https://api.slack.com/events/message/channel_join (and the sibling subtype pages)
 */
export function systemMessage(db: Db, ch: ChannelRow, user: string, event: ChannelEvent) {
  if (ch.kind === 'im') return
  const { subtype, ...fields } = event
  const meta: Record<string, unknown> = { ...fields }
  if (subtype === 'channel_archive') meta.members = membersOf(db, ch.id)
  if (meta.inviter === undefined) delete meta.inviter
  insertMessage(db, { channelId: ch.id, userId: user, subtype, text: eventText(user, event), meta })
}

/** Slack's `<@U…>` / `<#C…>` mentions in a text turned into display text (for search and dumps). */
export function plainText(db: Db, text: string): string {
  const users = new Map(allUsers(db).map((u) => [u.id, u.handle]))
  // Matched only up to the text's last `>` (decision 0392): an unclosed `<@U1|` retried from each later one scanned
  // to the end (40 KB of them: ~1 s a pattern).
  const mentions = replaceBeforeLastGt(
    text,
    /<@([UW][A-Z0-9]+)(\|[^>]*)?>/g,
    (_, id: string) => `@${users.get(id) ?? id}`,
  )
  const channels = replaceBeforeLastGt(
    mentions,
    /<#(C[A-Z0-9]+)(\|([^>]*))?>/g,
    (_, id: string, _l, label?: string) => `#${label ?? channelById(db, id)?.name ?? id}`,
  )
  return replaceBeforeLastGt(
    channels,
    /<(https?:[^|>]+)(\|([^>]*))?>/g,
    (_, url: string, _l, label?: string) => label ?? url,
  )
}
