import { z } from 'zod'
import { stmt } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import {
  addMember,
  canSee,
  channelById,
  cursorPage,
  isMember,
  me,
  membersOf,
  nowSec,
  removeMember,
  userById,
  visibleChannel,
  type ChannelRow,
} from '../store/core.ts'
import { openIm, openMpim, systemMessage } from '../store/messages.ts'
import { channelWire } from '../map.ts'
import { ownEntry } from '../../core/own-key.ts'

export const conversationsRouter = createSlackRouter()

const opt = () => z.string().optional()
const READ = {
  user: ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
  bot: ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
}
const WRITE = {
  user: ['channels:write', 'groups:write', 'im:write', 'mpim:write'],
  bot: ['channels:manage', 'groups:write', 'channels:write', 'im:write', 'mpim:write'],
}
const KINDS: Record<string, ChannelRow['kind']> = {
  public_channel: 'channel',
  private_channel: 'group',
  im: 'im',
  mpim: 'mpim',
}

/** Slack channel names: lowercase letters, digits, hyphens, underscores; at most 80 characters. */
function checkName(name: string | undefined): string {
  if (!name) throw new SlackApiError('invalid_name_required')
  if (name.length > 80) throw new SlackApiError('invalid_name_maxlength')
  if (!/^[a-z0-9_\-\u00C0-\uFFFF]+$/.test(name)) throw new SlackApiError('invalid_name_specials')
  return name
}

const wire = (c: WorldContext, ch: ChannelRow, extra = {}) => ({
  ...channelWire(c.var.world.db, ch, me(c).id),
  ...extra,
})

/** The caller's `last_read` in a channel, when they are a member. */
const lastReadOf = (c: WorldContext, ch: ChannelRow) =>
  (
    stmt(c.var.world.db, 'SELECT last_read FROM slack_members WHERE channel_id = ? AND user_id = ?').get(
      ch.id,
      me(c).id,
    ) as { last_read: string } | undefined
  )?.last_read

/** The channel as a member's write answers it: with the caller's `last_read` (recorded invite/rename responses). */
const memberWire = (c: WorldContext, ch: ChannelRow) => {
  const lastRead = lastReadOf(c, ch)
  return wire(c, ch, lastRead === undefined ? {} : { last_read: lastRead })
}

slackMethod(conversationsRouter, {
  name: 'conversations.list',
  args: z.object({
    types: opt(),
    exclude_archived: slackBool().optional(),
    limit: slackInt().optional(),
    cursor: opt(),
    team_id: opt(),
  }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const user = me(c)
    const types = (a.types ?? 'public_channel')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
    const kinds = types.map((t) => ownEntry(KINDS, t))
    if (kinds.some((k) => !k)) throw new SlackApiError('invalid_types')
    const rows = (stmt(db, 'SELECT * FROM slack_channels ORDER BY created, id').all() as ChannelRow[]).filter(
      (ch) => kinds.includes(ch.kind) && canSee(db, ch, user.id) && !(a.exclude_archived && ch.is_archived),
    )
    const { page, next } = cursorPage(rows, a.limit ?? 100, a.cursor)
    return {
      channels: page.map((ch) => channelWire(db, ch, user.id, { numMembers: ch.kind !== 'im' })),
      response_metadata: { next_cursor: next },
    }
  },
})

slackMethod(conversationsRouter, {
  name: 'conversations.info',
  args: z.object({
    channel: opt(),
    include_num_members: slackBool().optional(),
    include_locale: slackBool().optional(),
  }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const ch = visibleChannel(db, a.channel, me(c).id)
    const out = channelWire(db, ch, me(c).id, { numMembers: a.include_num_members })
    if (a.include_locale) out.locale = 'en-US'
    if (ch.kind !== 'im') {
      const lastRead = lastReadOf(c, ch)
      if (lastRead !== undefined) out.last_read = lastRead
    }
    return { channel: out }
  },
})

slackMethod(conversationsRouter, {
  name: 'conversations.create',
  args: z.object({ name: opt(), is_private: slackBool().optional(), team_id: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const name = checkName(a.name)
      if (stmt(db, "SELECT 1 FROM slack_channels WHERE name = ? AND kind IN ('channel','group')").get(name))
        throw new SlackApiError('name_taken')
      const user = me(c)
      const id = slackId(db, 'C')
      const now = nowSec(db)
      stmt(db, 'INSERT INTO slack_channels (id, name, kind, creator, created, updated) VALUES (?, ?, ?, ?, ?, ?)').run(
        id,
        name,
        a.is_private ? 'group' : 'channel',
        user.id,
        now,
        now * 1000,
      )
      addMember(db, id, user.id)
      const ch = channelById(db, id)!
      systemMessage(db, ch, user.id, { subtype: 'channel_join' })
      return {
        channel: wire(c, ch, { last_read: '0000000000.000000', unread_count: 0, unread_count_display: 0, priority: 0 }),
      }
    }),
})

/** A channel (not IM) the caller can see, for membership changes. */
function namedChannel(c: WorldContext, id: string | undefined) {
  const ch = visibleChannel(c.var.world.db, id, me(c).id)
  if (ch.kind === 'im') throw new SlackApiError('method_not_supported_for_channel_type')
  return ch
}

const touch = (c: WorldContext, id: string) =>
  stmt(c.var.world.db, 'UPDATE slack_channels SET updated = ? WHERE id = ?').run(nowSec(c.var.world.db) * 1000, id)

slackMethod(conversationsRouter, {
  name: 'conversations.archive',
  args: z.object({ channel: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const ch = namedChannel(c, a.channel)
      if (ch.is_archived) throw new SlackApiError('already_archived')
      if (ch.is_general) throw new SlackApiError('cant_archive_general')
      if (ch.kind === 'mpim') throw new SlackApiError('method_not_supported_for_channel_type')
      if (!isMember(db, ch.id, me(c).id)) throw new SlackApiError('not_in_channel')
      systemMessage(db, ch, me(c).id, { subtype: 'channel_archive' })
      stmt(db, 'UPDATE slack_channels SET is_archived = 1 WHERE id = ?').run(ch.id)
      touch(c, ch.id)
      return {}
    }),
})

slackMethod(conversationsRouter, {
  name: 'conversations.unarchive',
  args: z.object({ channel: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const ch = namedChannel(c, a.channel)
      if (!ch.is_archived) throw new SlackApiError('not_archived')
      stmt(db, 'UPDATE slack_channels SET is_archived = 0 WHERE id = ?').run(ch.id)
      // Slack: "This method unarchives a conversation. The calling user is added to the conversation."
      if (!isMember(db, ch.id, me(c).id)) addMember(db, ch.id, me(c).id)
      systemMessage(db, ch, me(c).id, { subtype: 'channel_unarchive' })
      touch(c, ch.id)
      return {}
    }),
})

slackMethod(conversationsRouter, {
  name: 'conversations.rename',
  args: z.object({ channel: opt(), name: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const ch = namedChannel(c, a.channel)
      const name = checkName(a.name)
      if (ch.is_archived) throw new SlackApiError('is_archived')
      if (!isMember(db, ch.id, me(c).id)) throw new SlackApiError('not_in_channel')
      if (
        stmt(db, "SELECT 1 FROM slack_channels WHERE name = ? AND id != ? AND kind IN ('channel','group')").get(
          name,
          ch.id,
        )
      )
        throw new SlackApiError('name_taken')
      const prev = JSON.parse(ch.previous_names) as string[]
      if (ch.name !== name) prev.unshift(ch.name)
      stmt(db, 'UPDATE slack_channels SET name = ?, previous_names = ? WHERE id = ?').run(
        name,
        JSON.stringify(prev),
        ch.id,
      )
      systemMessage(db, ch, me(c).id, { subtype: 'channel_name', old_name: ch.name, name })
      touch(c, ch.id)
      return { channel: memberWire(c, channelById(db, ch.id)!) }
    }),
})

slackMethod(conversationsRouter, {
  name: 'conversations.invite',
  args: z.object({ channel: opt(), users: opt(), force: slackBool().optional() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const ch = namedChannel(c, a.channel)
      const inviter = me(c)
      if (ch.is_archived) throw new SlackApiError('is_archived')
      if (!isMember(db, ch.id, inviter.id)) throw new SlackApiError('not_in_channel')
      const ids = (a.users ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      if (ids.length === 0) throw new SlackApiError('no_user')
      if (ids.length > 1000) throw new SlackApiError('too_many_users')
      for (const id of ids) {
        if (!userById(db, id)) throw new SlackApiError('user_not_found')
        if (id === inviter.id) throw new SlackApiError('cant_invite_self')
        if (isMember(db, ch.id, id))
          throw new SlackApiError('already_in_channel', {
            errors: [{ user: id, ok: false, error: 'already_in_channel' }],
          })
      }
      for (const id of ids) {
        addMember(db, ch.id, id)
        systemMessage(db, ch, id, { subtype: 'channel_join', inviter: inviter.id })
      }
      touch(c, ch.id)
      return { channel: memberWire(c, channelById(db, ch.id)!) }
    }),
})

slackMethod(conversationsRouter, {
  name: 'conversations.kick',
  args: z.object({ channel: opt(), user: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const ch = namedChannel(c, a.channel)
      const actor = me(c)
      if (!a.user || !userById(db, a.user)) throw new SlackApiError('user_not_found')
      if (a.user === actor.id) throw new SlackApiError('cant_kick_self')
      if (ch.is_general) throw new SlackApiError('cant_kick_from_general')
      if (!isMember(db, ch.id, actor.id)) throw new SlackApiError('not_in_channel')
      if (!isMember(db, ch.id, a.user)) throw new SlackApiError('not_in_channel')
      removeMember(db, ch.id, a.user)
      systemMessage(db, ch, a.user, { subtype: 'channel_leave' })
      return { errors: {} }
    }),
})

slackMethod(conversationsRouter, {
  name: 'conversations.join',
  args: z.object({ channel: opt() }),
  scopes: { user: ['channels:write'], bot: ['channels:join'] },
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const user = me(c)
      const ch = visibleChannel(db, a.channel, user.id)
      if (ch.kind !== 'channel') throw new SlackApiError('method_not_supported_for_channel_type')
      if (ch.is_archived) throw new SlackApiError('is_archived')
      const already = isMember(db, ch.id, user.id)
      if (!already) {
        addMember(db, ch.id, user.id)
        systemMessage(db, ch, user.id, { subtype: 'channel_join' })
      }
      const out: Record<string, unknown> = { channel: wire(c, channelById(db, ch.id)!, { priority: 0 }) }
      if (already)
        Object.assign(out, { warning: 'already_in_channel', response_metadata: { warnings: ['already_in_channel'] } })
      return out
    }),
})

slackMethod(conversationsRouter, {
  name: 'conversations.leave',
  args: z.object({ channel: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const user = me(c)
      const ch = visibleChannel(db, a.channel, user.id)
      if (ch.kind === 'im') throw new SlackApiError('method_not_supported_for_channel_type')
      if (ch.is_general) throw new SlackApiError('cant_leave_general')
      if (ch.is_archived) throw new SlackApiError('is_archived')
      if (!isMember(db, ch.id, user.id)) return { not_in_channel: true }
      if (ch.kind === 'group' && membersOf(db, ch.id).length === 1) throw new SlackApiError('last_member')
      removeMember(db, ch.id, user.id)
      systemMessage(db, ch, user.id, { subtype: 'channel_leave' })
      return {}
    }),
})

slackMethod(conversationsRouter, {
  name: 'conversations.members',
  args: z.object({ channel: opt(), limit: slackInt().optional(), cursor: opt() }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const ch = visibleChannel(db, a.channel, me(c).id)
    const { page, next } = cursorPage(membersOf(db, ch.id), a.limit ?? 100, a.cursor)
    return { members: page, response_metadata: { next_cursor: next } }
  },
})

slackMethod(conversationsRouter, {
  name: 'conversations.open',
  args: z.object({
    users: opt(),
    channel: opt(),
    return_im: slackBool().optional(),
    prevent_creation: slackBool().optional(),
  }),
  scopes: { user: ['im:write', 'mpim:write'], bot: ['im:write', 'mpim:write'] },
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = me(c)
      if (a.channel) {
        const ch = visibleChannel(db, a.channel, self.id)
        if (ch.kind !== 'im' && ch.kind !== 'mpim') throw new SlackApiError('channel_not_found')
        stmt(db, 'UPDATE slack_members SET is_open = 1 WHERE channel_id = ? AND user_id = ?').run(ch.id, self.id)
        return { channel: { id: ch.id } }
      }
      const ids = (a.users ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      if (ids.length === 0) throw new SlackApiError('users_list_not_supplied')
      if (ids.length > 8) throw new SlackApiError('too_many_users')
      for (const id of ids) if (!userById(db, id)) throw new SlackApiError('user_not_found')
      const others = ids.filter((id) => id !== self.id)
      const before = stmt(db, 'SELECT COUNT(*) AS n FROM slack_channels').get() as { n: number }
      const ch = others.length <= 1 ? openIm(db, self.id, others[0] ?? self.id) : openMpim(db, [self.id, ...others])
      const after = stmt(db, 'SELECT COUNT(*) AS n FROM slack_channels').get() as { n: number }
      stmt(db, 'UPDATE slack_members SET is_open = 1 WHERE channel_id = ? AND user_id = ?').run(ch.id, self.id)
      const out: Record<string, unknown> = {
        channel: a.return_im || ch.kind === 'mpim' ? channelWire(db, ch, self.id) : { id: ch.id },
      }
      if (after.n === before.n) Object.assign(out, { no_op: true, already_open: true })
      return out
    }),
})

slackMethod(conversationsRouter, {
  name: 'conversations.close',
  args: z.object({ channel: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = me(c)
      const ch = visibleChannel(db, a.channel, self.id)
      if (ch.kind !== 'im' && ch.kind !== 'mpim') throw new SlackApiError('method_not_supported_for_channel_type')
      const row = stmt(db, 'SELECT is_open FROM slack_members WHERE channel_id = ? AND user_id = ?').get(
        ch.id,
        self.id,
      ) as { is_open: number }
      stmt(db, 'UPDATE slack_members SET is_open = 0 WHERE channel_id = ? AND user_id = ?').run(ch.id, self.id)
      return row.is_open ? {} : { no_op: true, already_closed: true }
    }),
})

slackMethod(conversationsRouter, {
  name: 'conversations.mark',
  args: z.object({ channel: opt(), ts: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = me(c)
      const ch = visibleChannel(db, a.channel, self.id)
      if (!a.ts || !/^\d+\.\d+$/.test(a.ts)) throw new SlackApiError('invalid_timestamp')
      if (!isMember(db, ch.id, self.id)) throw new SlackApiError('not_in_channel')
      stmt(db, 'UPDATE slack_members SET last_read = ? WHERE channel_id = ? AND user_id = ?').run(a.ts, ch.id, self.id)
      return {}
    }),
})

for (const [method, field, subtype] of [
  ['conversations.setPurpose', 'purpose', 'channel_purpose'],
  ['conversations.setTopic', 'topic', 'channel_topic'],
] as const) {
  slackMethod(conversationsRouter, {
    name: method,
    args: z.object({ channel: opt(), [field]: z.string().max(250, { error: 'too_long' }).optional() }),
    scopes: WRITE,
    handler: (c, a) =>
      c.var.world.tx((db) => {
        const self = me(c)
        const ch = visibleChannel(db, a.channel, self.id)
        if (ch.kind === 'im') throw new SlackApiError('method_not_supported_for_channel_type')
        if (ch.is_archived) throw new SlackApiError('is_archived')
        if (!isMember(db, ch.id, self.id)) throw new SlackApiError('not_in_channel')
        const value = String((a as Record<string, unknown>)[field] ?? '')
        stmt(
          db,
          `UPDATE slack_channels SET ${field} = ?, ${field}_creator = ?, ${field}_last_set = ? WHERE id = ?`,
        ).run(value, self.id, nowSec(db), ch.id)
        const event = subtype === 'channel_topic' ? { subtype, topic: value } : { subtype, purpose: value }
        systemMessage(db, ch, self.id, event)
        touch(c, ch.id)
        return { channel: wire(c, channelById(db, ch.id)!) }
      }),
  })
}
