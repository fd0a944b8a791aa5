import { keyedRow, stmt, type Db } from '../../core/db.ts'
import { columnNames } from '../../core/dump-rows.ts'
import { getMeta, nowMs } from '../../core/clock.ts'
import { findUserById } from '../../core/users.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import type { WorldContext } from '../../core/http.ts'
import { slackChannels, slackMessages, slackUsers } from '../schema.ts'

/** Raw `slack_users` row. */
export type UserRow = {
  id: string
  world_user_id: string
  handle: string
  is_bot: number
  bot_id: string | null
  display_name: string
  status_text: string
  status_emoji: string
  phone: string
  title: string | null
  presence: string
  updated: number
  role: string
  deleted: number
  guest: string
  expiration: number
  photo: string
  session_settings: string
}
/** Raw `slack_channels` row. */
export type ChannelRow = {
  id: string
  name: string
  kind: 'channel' | 'group' | 'im' | 'mpim'
  creator: string
  created: number
  updated: number
  is_archived: number
  is_general: number
  topic: string
  topic_creator: string
  topic_last_set: number
  purpose: string
  purpose_creator: string
  purpose_last_set: number
  previous_names: string
  prefs: string
  retention: number
}
/** Raw `slack_messages` row. */
export type MessageRow = {
  channel_id: string
  ts: string
  user_id: string
  bot_id: string | null
  subtype: string | null
  text: string
  blocks: string | null
  attachments: string | null
  files: string | null
  thread_ts: string | null
  reply_broadcast: number
  edited_ts: string | null
  edited_user: string | null
  meta: string | null
  metadata: string | null
  username: string | null
}

/** The workspace (team) id of this world. */
export const teamId = (db: Db) => getMeta(db, 'slack_team_id') ?? 'T0000000000'
/** Workspace domain (`northwind` for northwind.test). */
export const teamDomain = (db: Db) => (getMeta(db, 'domain') ?? 'example.com').split('.')[0]!
/** Whole seconds of the world clock. */
export const nowSec = (db: Db) => Math.floor(nowMs(db) / 1000)

// Whole rows of the hot one-row reads (the caller's user, a channel, a message) are read raw and keyed by the table's
// columns (keyedRow): the same objects as `SELECT *` gives.
const USER_KEYS = columnNames(slackUsers)
const CHANNEL_KEYS = columnNames(slackChannels)
const MESSAGE_KEYS = columnNames(slackMessages)
const USER_SQL = `SELECT ${USER_KEYS.join(', ')} FROM slack_users WHERE`
const CHANNEL_SQL = `SELECT ${CHANNEL_KEYS.join(', ')} FROM slack_channels WHERE id = ?`
const MESSAGE_SQL = `SELECT ${MESSAGE_KEYS.join(', ')} FROM slack_messages WHERE channel_id = ? AND ts = ?`

export const userById = (db: Db, id: string) =>
  keyedRow<UserRow>(USER_KEYS, stmt(db, `${USER_SQL} id = ?`).raw(true).get(id))
export const userByWorldId = (db: Db, id: string) =>
  keyedRow<UserRow>(USER_KEYS, stmt(db, `${USER_SQL} world_user_id = ?`).raw(true).get(id))
export const allUsers = (db: Db) => stmt(db, 'SELECT * FROM slack_users ORDER BY rowid').all() as UserRow[]

/** The Slack user behind the request's token. */
export function me(c: WorldContext): UserRow {
  const row = userByWorldId(c.var.world.db, c.var.user.id)
  if (!row) throw new SlackApiError('user_not_found')
  return row
}

/** True when the caller uses a bot token. */
export const isBotCall = (c: WorldContext) => c.var.principal?.tokenKind === 'slack_bot'

/** A user by Slack id or throws `user_not_found`. */
export function requireUser(db: Db, id: string, error = 'user_not_found'): UserRow {
  const row = userById(db, id)
  if (!row) throw new SlackApiError(error)
  return row
}

export const worldUserOf = (db: Db, u: UserRow) => findUserById(db, u.world_user_id)

export const channelById = (db: Db, id: string) =>
  keyedRow<ChannelRow>(CHANNEL_KEYS, stmt(db, CHANNEL_SQL).raw(true).get(id))

export const isMember = (db: Db, channelId: string, userId: string) =>
  stmt(db, 'SELECT 1 FROM slack_members WHERE channel_id = ? AND user_id = ?').get(channelId, userId) !== undefined

export const membersOf = (db: Db, channelId: string) =>
  (
    stmt(db, 'SELECT user_id FROM slack_members WHERE channel_id = ? ORDER BY rowid').all(channelId) as {
      user_id: string
    }[]
  ).map((r) => r.user_id)

/** Public channels are visible to every member of the workspace; the rest only to their members. */
export const canSee = (db: Db, ch: ChannelRow, userId: string) => ch.kind === 'channel' || isMember(db, ch.id, userId)

/** A conversation the user may see, or `channel_not_found` (private ones are invisible to non-members). */
export function visibleChannel(db: Db, id: unknown, userId: string): ChannelRow {
  if (typeof id !== 'string' || id === '') throw new SlackApiError('channel_not_found')
  const ch = channelById(db, id)
  if (!ch || !canSee(db, ch, userId)) throw new SlackApiError('channel_not_found')
  return ch
}

/** A message by channel and ts. */
export const messageAt = (db: Db, channelId: string, ts: string) =>
  keyedRow<MessageRow>(MESSAGE_KEYS, stmt(db, MESSAGE_SQL).raw(true).get(channelId, ts))

/** Adds a member (no-op when present). */
export function addMember(db: Db, channelId: string, userId: string) {
  stmt(db, 'INSERT INTO slack_members (channel_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING').run(
    channelId,
    userId,
  )
}

export function removeMember(db: Db, channelId: string, userId: string) {
  stmt(db, 'DELETE FROM slack_members WHERE channel_id = ? AND user_id = ?').run(channelId, userId)
}

/** Cursor paging over an ordered array: cursor is base64 of `next:<offset>` as Slack's look. */
export function cursorPage<T>(items: readonly T[], limit: number | undefined, cursor: string | undefined, max = 1000) {
  let start = 0
  if (cursor) {
    const raw = Buffer.from(cursor, 'base64').toString('utf8')
    const m = /^next:(\d+)$/.exec(raw)
    if (!m) throw new SlackApiError('invalid_cursor')
    start = Number(m[1])
  }
  const size = !limit || limit <= 0 ? Math.min(items.length, max) : Math.min(limit, max)
  const page = items.slice(start, start + size)
  const next = start + size < items.length ? Buffer.from(`next:${start + size}`).toString('base64') : ''
  return { page, next }
}

/** JSON column → value. */
/** Slack's answer to a missing required argument: `invalid_arguments` naming the field. */
export const missingField = (field: string) =>
  new SlackApiError('invalid_arguments', {
    response_metadata: { messages: [`[ERROR] missing required field: ${field}`] },
  })

export const parseJson = <T>(v: string | null | undefined, fallback: T): T => (v ? (JSON.parse(v) as T) : fallback)
