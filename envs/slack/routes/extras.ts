import { z } from 'zod'
import { stmt } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import {
  canSee,
  channelById,
  me,
  missingField,
  messageAt,
  nowSec,
  parseJson,
  teamId,
  userById,
  visibleChannel,
} from '../store/core.ts'
import { messageWire } from '../map.ts'

export const extrasRouter = createSlackRouter()
const opt = () => z.string().optional()

// Stars (saved items).
const starTarget = z.object({ channel: opt(), timestamp: opt(), file: opt(), file_comment: opt() })
function starKey(c: WorldContext, a: z.output<typeof starTarget>) {
  const db = c.var.world.db
  if (a.file) throw new SlackApiError('file_not_found')
  if (!a.channel) throw new SlackApiError('bad_timestamp')
  const ch = visibleChannel(db, a.channel, me(c).id)
  if (a.timestamp && !messageAt(db, ch.id, a.timestamp)) throw new SlackApiError('message_not_found')
  return { ch: ch.id, ts: a.timestamp ?? '' }
}
slackMethod(extrasRouter, {
  name: 'stars.add',
  args: starTarget,
  scopes: { user: ['stars:write'] },
  tokens: ['slack_user'],
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const k = starKey(c, a)
      const r = stmt(db, 'INSERT OR IGNORE INTO slack_stars (user_id, channel_id, ts, created) VALUES (?,?,?,?)').run(
        me(c).id,
        k.ch,
        k.ts,
        nowSec(db),
      )
      if (r.changes === 0) throw new SlackApiError('already_starred')
      return {}
    }),
})
slackMethod(extrasRouter, {
  name: 'stars.remove',
  args: starTarget,
  scopes: { user: ['stars:write'] },
  tokens: ['slack_user'],
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const k = starKey(c, a)
      const r = stmt(db, 'DELETE FROM slack_stars WHERE user_id = ? AND channel_id = ? AND ts = ?').run(
        me(c).id,
        k.ch,
        k.ts,
      )
      if (r.changes === 0) throw new SlackApiError('not_starred')
      return {}
    }),
})
slackMethod(extrasRouter, {
  name: 'stars.list',
  args: z.object({
    count: slackInt().optional(),
    page: slackInt().optional(),
    limit: slackInt().optional(),
    cursor: opt(),
  }),
  scopes: { user: ['stars:read'] },
  tokens: ['slack_user'],
  handler: (c, a) => {
    const db = c.var.world.db
    const self = me(c).id
    const rows = stmt(db, 'SELECT * FROM slack_stars WHERE user_id = ? ORDER BY created DESC, rowid DESC').all(
      self,
    ) as { channel_id: string; ts: string; created: number }[]
    const items = rows.flatMap((s) => {
      const ch = channelById(db, s.channel_id)
      if (!ch || !canSee(db, ch, self)) return []
      if (!s.ts) return [{ type: ch.kind === 'im' ? 'im' : 'channel', channel: ch.id, date_create: s.created }]
      const m = messageAt(db, ch.id, s.ts)
      return m
        ? [{ type: 'message', channel: ch.id, message: messageWire(db, m, { viewer: self }), date_create: s.created }]
        : []
    })
    const count = Math.min(Math.max(a.limit ?? a.count ?? 100, 1), 1000)
    const page = Math.max(a.page ?? 1, 1)
    return {
      items: items.slice((page - 1) * count, page * count),
      paging: { count, total: items.length, page, pages: Math.max(1, Math.ceil(items.length / count)) },
    }
  },
})

// Bookmarks.
type Bookmark = {
  id: string
  channel_id: string
  title: string
  link: string
  emoji: string
  type: string
  created: number
  updated: number
  user_id: string
}
const bookmarkWire = (c: WorldContext, b: Bookmark) => ({
  id: b.id,
  channel_id: b.channel_id,
  title: b.title,
  link: b.link,
  emoji: b.emoji || null,
  icon_url: null,
  type: b.type,
  entity_id: null,
  date_created: b.created,
  date_updated: b.updated,
  rank: 'U',
  last_updated_by_user_id: b.user_id,
  last_updated_by_team_id: teamId(c.var.world.db),
  shortcut_id: null,
  app_id: null,
  app_action_id: null,
  date_last_used: 0,
  is_external: false,
  owner_id: b.user_id,
})
const BM = { user: ['bookmarks:write'], bot: ['bookmarks:write'] }
slackMethod(extrasRouter, {
  name: 'bookmarks.add',
  args: z.object({
    channel_id: opt(),
    title: opt(),
    type: opt(),
    link: opt(),
    emoji: opt(),
    entity_id: opt(),
    parent_id: opt(),
  }),
  scopes: BM,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const ch = visibleChannel(db, a.channel_id, me(c).id)
      if (!a.title) throw missingField('title')
      if (a.type !== 'link') throw new SlackApiError('invalid_bookmark_type')
      if (!a.link || !/^https?:\/\//.test(a.link)) throw new SlackApiError('invalid_link')
      const id = slackId(db, 'Bk')
      stmt(
        db,
        'INSERT INTO slack_bookmarks (id, channel_id, title, link, emoji, type, created, updated, user_id) VALUES (?,?,?,?,?,?,?,?,?)',
      ).run(id, ch.id, a.title, a.link, a.emoji ?? '', 'link', nowSec(db), nowSec(db), me(c).id)
      return { bookmark: bookmarkWire(c, stmt(db, 'SELECT * FROM slack_bookmarks WHERE id = ?').get(id) as Bookmark) }
    }),
})
const ownBookmark = (c: WorldContext, channel: string | undefined, id: string | undefined) => {
  const ch = visibleChannel(c.var.world.db, channel, me(c).id)
  const b = stmt(c.var.world.db, 'SELECT * FROM slack_bookmarks WHERE id = ? AND channel_id = ?').get(
    id ?? '',
    ch.id,
  ) as Bookmark | undefined
  if (!b) throw new SlackApiError('not_found')
  return b
}
slackMethod(extrasRouter, {
  name: 'bookmarks.edit',
  args: z.object({ channel_id: opt(), bookmark_id: opt(), title: opt(), link: opt(), emoji: opt() }),
  scopes: BM,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const b = ownBookmark(c, a.channel_id, a.bookmark_id)
      if (a.link !== undefined && !/^https?:\/\//.test(a.link)) throw new SlackApiError('invalid_link')
      stmt(db, 'UPDATE slack_bookmarks SET title = ?, link = ?, emoji = ?, updated = ?, user_id = ? WHERE id = ?').run(
        a.title ?? b.title,
        a.link ?? b.link,
        a.emoji ?? b.emoji,
        nowSec(db),
        me(c).id,
        b.id,
      )
      return { bookmark: bookmarkWire(c, stmt(db, 'SELECT * FROM slack_bookmarks WHERE id = ?').get(b.id) as Bookmark) }
    }),
})
slackMethod(extrasRouter, {
  name: 'bookmarks.remove',
  args: z.object({ channel_id: opt(), bookmark_id: opt(), quip_section_id: opt() }),
  scopes: BM,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const b = ownBookmark(c, a.channel_id, a.bookmark_id)
      stmt(db, 'DELETE FROM slack_bookmarks WHERE id = ?').run(b.id)
      return {}
    }),
})
slackMethod(extrasRouter, {
  name: 'bookmarks.list',
  args: z.object({ channel_id: opt() }),
  scopes: { user: ['bookmarks:read'], bot: ['bookmarks:read'] },
  handler: (c, a) => {
    const ch = visibleChannel(c.var.world.db, a.channel_id, me(c).id)
    const rows = stmt(c.var.world.db, 'SELECT * FROM slack_bookmarks WHERE channel_id = ? ORDER BY created, rowid').all(
      ch.id,
    ) as Bookmark[]
    return { bookmarks: rows.map((b) => bookmarkWire(c, b)) }
  },
})

// User groups.
type Group = {
  id: string
  name: string
  handle: string
  description: string
  users: string
  channels: string
  created_by: string
  created: number
  updated: number
  disabled: number
}
const groupWire = (c: WorldContext, g: Group, withUsers = true) => {
  const users = parseJson<string[]>(g.users, [])
  return {
    id: g.id,
    team_id: teamId(c.var.world.db),
    is_usergroup: true,
    is_subteam: true,
    name: g.name,
    description: g.description,
    handle: g.handle,
    is_external: false,
    date_create: g.created,
    date_update: g.updated,
    date_delete: g.disabled ? g.updated : 0,
    auto_type: null,
    created_by: g.created_by,
    updated_by: g.created_by,
    deleted_by: null,
    prefs: { channels: parseJson<string[]>(g.channels, []), groups: [] },
    user_count: users.length,
    ...(withUsers ? { users } : {}),
  }
}
const UG_W = { user: ['usergroups:write'], bot: ['usergroups:write'] }
const UG_R = { user: ['usergroups:read'], bot: ['usergroups:read'] }
const group = (c: WorldContext, id: string | undefined) => {
  const g = stmt(c.var.world.db, 'SELECT * FROM slack_usergroups WHERE id = ?').get(id ?? '') as Group | undefined
  if (!g) throw new SlackApiError('no_such_subteam')
  return g
}
/**
 * Slack's method reference: a handle "Must be unique among channels, users and User Groups", a name "Must be unique
 * among User Groups"; both answer `name_already_exists` ("Name is already in use on this workspace"). A disabled
 * group holds neither. Deviation (unverified): the reference names no other error for a taken handle.
 */
const handleTaken = (c: WorldContext, handle: string, except = '') => {
  const db = c.var.world.db
  if (
    stmt(db, 'SELECT 1 FROM slack_usergroups WHERE handle = ? AND id != ? AND disabled = 0').get(handle, except) ||
    stmt(db, 'SELECT 1 FROM slack_users WHERE handle = ?').get(handle) ||
    stmt(db, "SELECT 1 FROM slack_channels WHERE name = ? AND kind IN ('channel', 'group')").get(handle)
  )
    throw new SlackApiError('name_already_exists')
}
const nameTaken = (c: WorldContext, name: string, except = '') => {
  const sql = 'SELECT 1 FROM slack_usergroups WHERE name = ? AND id != ? AND disabled = 0'
  if (stmt(c.var.world.db, sql).get(name, except)) throw new SlackApiError('name_already_exists')
}
slackMethod(extrasRouter, {
  name: 'usergroups.create',
  args: z.object({
    name: opt(),
    handle: opt(),
    description: opt(),
    channels: opt(),
    include_count: slackBool().optional(),
  }),
  scopes: UG_W,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      if (!a.name) throw new SlackApiError('invalid_arguments')
      const handle = (a.handle ?? a.name).toLowerCase().replace(/[^a-z0-9._-]/g, '-')
      nameTaken(c, a.name)
      handleTaken(c, handle)
      const id = slackId(db, 'S')
      stmt(
        db,
        'INSERT INTO slack_usergroups (id, name, handle, description, channels, created_by, created, updated) VALUES (?,?,?,?,?,?,?,?)',
      ).run(
        id,
        a.name,
        handle,
        a.description ?? '',
        JSON.stringify((a.channels ?? '').split(',').filter(Boolean)),
        me(c).id,
        nowSec(db),
        nowSec(db),
      )
      return { usergroup: groupWire(c, group(c, id)) }
    }),
})
slackMethod(extrasRouter, {
  name: 'usergroups.list',
  args: z.object({
    include_disabled: slackBool().optional(),
    include_users: slackBool().optional(),
    include_count: slackBool().optional(),
    team_id: opt(),
  }),
  scopes: UG_R,
  handler: (c, a) => {
    const rows = stmt(c.var.world.db, 'SELECT * FROM slack_usergroups ORDER BY name, id').all() as Group[]
    return {
      usergroups: rows
        .filter((g) => a.include_disabled || !g.disabled)
        .map((g) => groupWire(c, g, a.include_users ?? false)),
    }
  },
})
slackMethod(extrasRouter, {
  name: 'usergroups.update',
  args: z.object({
    usergroup: opt(),
    name: opt(),
    handle: opt(),
    description: opt(),
    channels: opt(),
    include_count: slackBool().optional(),
  }),
  scopes: UG_W,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const g = group(c, a.usergroup)
      if (a.name) nameTaken(c, a.name, g.id)
      if (a.handle) handleTaken(c, a.handle, g.id)
      stmt(
        db,
        'UPDATE slack_usergroups SET name = ?, handle = ?, description = ?, channels = ?, updated = ? WHERE id = ?',
      ).run(
        a.name ?? g.name,
        a.handle ?? g.handle,
        a.description ?? g.description,
        a.channels !== undefined ? JSON.stringify(a.channels.split(',').filter(Boolean)) : g.channels,
        nowSec(db),
        g.id,
      )
      return { usergroup: groupWire(c, group(c, g.id)) }
    }),
})
for (const [name, disabled] of [
  ['usergroups.disable', 1],
  ['usergroups.enable', 0],
] as const) {
  slackMethod(extrasRouter, {
    name,
    args: z.object({ usergroup: opt(), include_count: slackBool().optional() }),
    scopes: UG_W,
    handler: (c, a) =>
      c.var.world.tx((db) => {
        const g = group(c, a.usergroup)
        if (g.disabled === disabled)
          throw new SlackApiError(disabled ? 'usergroup_already_disabled' : 'usergroup_already_enabled')
        stmt(db, 'UPDATE slack_usergroups SET disabled = ?, updated = ? WHERE id = ?').run(disabled, nowSec(db), g.id)
        return { usergroup: groupWire(c, group(c, g.id)) }
      }),
  })
}
slackMethod(extrasRouter, {
  name: 'usergroups.users.list',
  args: z.object({ usergroup: opt(), include_disabled: slackBool().optional() }),
  scopes: UG_R,
  handler: (c, a) => {
    const g = group(c, a.usergroup)
    if (g.disabled && !a.include_disabled) throw new SlackApiError('no_such_subteam')
    return { users: parseJson<string[]>(g.users, []) }
  },
})
slackMethod(extrasRouter, {
  name: 'usergroups.users.update',
  args: z.object({ usergroup: opt(), users: opt(), include_count: slackBool().optional() }),
  scopes: UG_W,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const g = group(c, a.usergroup)
      const ids = (a.users ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      if (ids.length === 0) throw new SlackApiError('no_users_provided')
      for (const id of ids) if (!userById(db, id)) throw new SlackApiError('invalid_users')
      stmt(db, 'UPDATE slack_usergroups SET users = ?, updated = ? WHERE id = ?').run(
        JSON.stringify([...new Set(ids)]),
        nowSec(db),
        g.id,
      )
      return { usergroup: groupWire(c, group(c, g.id)) }
    }),
})
