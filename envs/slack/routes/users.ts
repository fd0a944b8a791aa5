import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackJson, slackMethod } from '../../core/http.ts'
import { findUserByEmail } from '../../core/users.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import {
  allUsers,
  canSee,
  channelById,
  cursorPage,
  me,
  nowSec,
  requireUser,
  teamDomain,
  teamId,
  userById,
  userByWorldId,
  worldUserOf,
  type ChannelRow,
  type UserRow,
} from '../store/core.ts'
import { channelWire, userWire, userWireFacts } from '../map.ts'

export const usersRouter = createSlackRouter()

const opt = () => z.string().optional()
const READ = { user: ['users:read'], bot: ['users:read'] }

slackMethod(usersRouter, {
  name: 'users.list',
  args: z.object({
    limit: slackInt().optional(),
    cursor: opt(),
    include_locale: slackBool().optional(),
    team_id: opt(),
  }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const emails = c.var.principal.scopes.includes('users:read.email')
    const { page, next } = cursorPage(allUsers(db), a.limit ?? 0, a.cursor)
    const facts = userWireFacts(db)
    const members = page.map((u) => strip(userWire(db, u, facts), emails))
    // As users.info: `include_locale` adds each member's locale.
    if (a.include_locale) for (const m of members) m.locale = 'en-US'
    return { members, cache_ts: Math.floor(facts.nowMs / 1000), response_metadata: { next_cursor: next } }
  },
})

/** Without users:read.email the profile carries no email, as in Slack. */
function strip(u: Record<string, unknown>, emails: boolean) {
  if (emails) return u
  const profile = { ...(u.profile as Record<string, unknown>) }
  delete profile.email
  return { ...u, profile }
}

slackMethod(usersRouter, {
  name: 'users.info',
  args: z.object({ user: opt(), include_locale: slackBool().optional() }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const u = requireUser(db, a.user ?? '')
    const out = strip(userWire(db, u), c.var.principal.scopes.includes('users:read.email'))
    if (a.include_locale) out.locale = 'en-US'
    return { user: out }
  },
})

slackMethod(usersRouter, {
  name: 'users.lookupByEmail',
  args: z.object({ email: opt() }),
  scopes: { user: ['users:read.email'], bot: ['users:read.email'] },
  handler: (c, a) => {
    const db = c.var.world.db
    const w = a.email ? findUserByEmail(db, a.email) : undefined
    const u = w ? userByWorldId(db, w.id) : undefined
    if (!u) throw new SlackApiError('users_not_found')
    return { user: userWire(db, u) }
  },
})

slackMethod(usersRouter, {
  name: 'users.conversations',
  args: z.object({
    user: opt(),
    types: opt(),
    exclude_archived: slackBool().optional(),
    limit: slackInt().optional(),
    cursor: opt(),
  }),
  scopes: {
    user: ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
    bot: ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
  },
  handler: (c, a) => {
    const db = c.var.world.db
    const viewer = me(c).id
    const target = a.user ? requireUser(db, a.user).id : viewer
    const kinds = (a.types ?? 'public_channel')
      .split(',')
      .map((t) => ({ public_channel: 'channel', private_channel: 'group', im: 'im', mpim: 'mpim' })[t.trim()])
    if (kinds.some((k) => !k)) throw new SlackApiError('invalid_types')
    const rows = (
      stmt(
        db,
        'SELECT c.* FROM slack_channels c JOIN slack_members m ON m.channel_id = c.id WHERE m.user_id = ? ORDER BY c.created, c.id',
      ).all(target) as ChannelRow[]
    ).filter((ch) => kinds.includes(ch.kind) && canSee(db, ch, viewer) && !(a.exclude_archived && ch.is_archived))
    const { page, next } = cursorPage(rows, a.limit ?? 100, a.cursor)
    return { channels: page.map((ch) => channelWire(db, ch, viewer)), response_metadata: { next_cursor: next } }
  },
})

slackMethod(usersRouter, {
  name: 'users.getPresence',
  args: z.object({ user: opt() }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const self = me(c)
    const u = a.user ? requireUser(db, a.user) : self
    const presence = u.is_bot ? 'active' : u.presence
    if (u.id !== self.id) return { presence }
    return {
      presence,
      online: presence === 'active',
      auto_away: false,
      manual_away: presence === 'away',
      connection_count: presence === 'active' ? 1 : 0,
      last_activity: nowSec(db),
    }
  },
})

slackMethod(usersRouter, {
  name: 'users.setPresence',
  args: z.object({ presence: opt() }),
  scopes: { user: ['users:write'], bot: ['users:write'] },
  handler: (c, a) => {
    if (a.presence !== 'auto' && a.presence !== 'away') throw new SlackApiError('invalid_presence')
    c.var.world.tx((db) =>
      stmt(db, 'UPDATE slack_users SET presence = ? WHERE id = ?').run(
        a.presence === 'away' ? 'away' : 'active',
        me(c).id,
      ),
    )
    return {}
  },
})

slackMethod(usersRouter, {
  name: 'users.identity',
  args: z.object({}).passthrough(),
  tokens: ['slack_user'],
  handler: (c) => {
    const u = me(c)
    const db = c.var.world.db
    return {
      user: { name: c.var.user.name, id: u.id, email: c.var.user.email },
      team: { id: teamId(db), name: teamDomain(db) },
    }
  },
})

/** A profile as users.profile.get|set answer it: the users.info profile without `team` (recorded users_profile_get). */
function ownProfile(db: Db, u: UserRow): Record<string, unknown> {
  const { team: _team, ...profile } = userWire(db, u).profile as Record<string, unknown>
  return { ...profile, fields: {}, status_clear_on_focus_end: false }
}

slackMethod(usersRouter, {
  name: 'users.profile.get',
  args: z.object({ user: opt(), include_labels: slackBool().optional() }),
  scopes: { user: ['users.profile:read'], bot: ['users.profile:read'] },
  handler: (c, a) => {
    const db = c.var.world.db
    const u = a.user ? requireUser(db, a.user) : me(c)
    return { profile: ownProfile(db, u) }
  },
})

const PROFILE_FIELDS = {
  display_name: 'display_name',
  status_text: 'status_text',
  status_emoji: 'status_emoji',
  phone: 'phone',
  title: 'title',
} as const

slackMethod(usersRouter, {
  name: 'users.profile.set',
  args: z.object({
    user: opt(),
    profile: slackJson(z.record(z.string(), z.unknown())).optional(),
    name: opt(),
    value: opt(),
  }),
  scopes: { user: ['users.profile:write'] },
  tokens: ['slack_user'],
  handler: (c, a) => {
    const self = me(c)
    if (a.user && a.user !== self.id) throw new SlackApiError('cannot_update_admin_user')
    const changes: Record<string, unknown> = { ...(a.profile ?? {}) }
    if (a.name) changes[a.name] = a.value ?? ''
    if (Object.keys(changes).length === 0) throw new SlackApiError('invalid_profile')
    return c.var.world.tx((db) => {
      for (const [k, v] of Object.entries(changes)) {
        const col = Object.hasOwn(PROFILE_FIELDS, k) ? PROFILE_FIELDS[k as keyof typeof PROFILE_FIELDS] : undefined
        // Deviation: real_name, first/last name and email belong to the world user; they are read-only here.
        if (!col) continue
        if (typeof v !== 'string') throw new SlackApiError('invalid_profile')
        if (k === 'status_text' && v.length > 100) throw new SlackApiError('too_long')
        // A title equal to the world user's is no override: the directory's shows again (null).
        const value = k === 'title' && v === (worldUserOf(db, self)?.title ?? '') ? null : v
        stmt(db, `UPDATE slack_users SET ${col} = ?, updated = ? WHERE id = ?`).run(value, nowSec(db), self.id)
      }
      const u = userById(db, self.id)!
      return { profile: ownProfile(db, u), username: u.handle }
    })
  },
})

slackMethod(usersRouter, {
  name: 'bots.info',
  args: z.object({ bot: opt(), team_id: opt() }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const u = stmt(db, 'SELECT * FROM slack_users WHERE bot_id = ?').get(a.bot ?? '') as ReturnType<typeof userById>
    if (!u) throw new SlackApiError('bot_not_found')
    return {
      bot: {
        id: u.bot_id,
        deleted: false,
        name: u.display_name || u.handle,
        updated: u.updated,
        app_id: `A${u.bot_id!.slice(1)}`,
        user_id: u.id,
        icons: {
          image_36: 'https://a.slack-edge.com/80588/img/plugins/app/bot_36.png',
          image_48: 'https://a.slack-edge.com/80588/img/plugins/app/bot_48.png',
          image_72: 'https://a.slack-edge.com/80588/img/plugins/app/service_72.png',
        },
      },
    }
  },
})
