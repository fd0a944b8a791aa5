import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackMethod } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { findUserByEmail } from '../../core/users.ts'
import {
  allUsers,
  channelById,
  cursorPage,
  nowSec,
  parseJson,
  teamId,
  userById,
  worldUserOf,
  type UserRow,
} from '../store/core.ts'
import { checkTeam, idList, isAdminRole, requireAdmin, revokeSessions } from '../store/admin.ts'

// admin.users.*: member administration by Workspace Admins and Owners (roles, deactivation, guests,
// invitations, client sessions). Deviation: Slack serves these to Enterprise Grid org admins only.

export const adminUsersRouter = createSlackRouter()
const opt = () => z.string().optional()
const W = { user: ['admin.users:write'] }
const R = { user: ['admin.users:read'] }
const USER = ['slack_user'] as const

/** The target member of an admin.users call: exists, not Slackbot. */
function target(db: Db, id: string | undefined): UserRow {
  const u = id ? userById(db, id) : undefined
  if (!u || u.id === 'USLACKBOT') throw new SlackApiError('user_not_found')
  return u
}

function userEntry(db: Db, u: UserRow) {
  const w = worldUserOf(db, u)
  return {
    id: u.id,
    email: u.is_bot ? '' : (w?.email ?? ''),
    is_admin: isAdminRole(u.role),
    is_owner: u.role === 'owner' || u.role === 'primary_owner',
    is_primary_owner: u.role === 'primary_owner',
    is_restricted: u.guest !== '',
    is_ultra_restricted: u.guest === 'ultra_restricted',
    is_bot: u.is_bot === 1,
    username: u.handle,
    full_name: w?.name ?? u.handle,
    is_active: u.deleted === 0,
    date_created: u.updated,
    deactivated_ts: u.deleted ? u.updated : 0,
    expiration_ts: u.expiration,
    workspaces: [teamId(db)],
    has_2fa: false,
    has_sso: false,
    is_invited_user: false,
  }
}

slackMethod(adminUsersRouter, {
  name: 'admin.users.list',
  args: z.object({
    team_id: opt(),
    cursor: opt(),
    limit: slackInt().optional(),
    is_active: slackBool().optional(),
    include_deactivated_user_workspaces: slackBool().optional(),
  }),
  scopes: R,
  tokens: USER,
  handler: (c, a) => {
    requireAdmin(c)
    const db = c.var.world.db
    checkTeam(db, a.team_id, true)
    if (a.limit !== undefined && (a.limit < 1 || a.limit > 1000)) throw new SlackApiError('invalid_limit')
    const users = allUsers(db).filter(
      (u) => u.id !== 'USLACKBOT' && (a.is_active === undefined || a.is_active === (u.deleted === 0)),
    )
    const { page, next } = cursorPage(
      users.map((u) => userEntry(db, u)),
      a.limit ?? 100,
      a.cursor,
    )
    return { users: page, response_metadata: { next_cursor: next } }
  },
})

const roleChange = (name: string, role: string, ownerOnly: boolean) =>
  slackMethod(adminUsersRouter, {
    name,
    args: z.object({ team_id: opt(), user_id: opt() }),
    scopes: W,
    tokens: USER,
    handler: (c, a) =>
      c.var.world.tx((db) => {
        const self = requireAdmin(c, ownerOnly)
        checkTeam(db, a.team_id, true)
        const u = target(db, a.user_id)
        if (u.is_bot) throw new SlackApiError('cannot_modify_bot_user')
        if (u.deleted) throw new SlackApiError('user_is_deactivated')
        if (u.role === 'primary_owner') throw new SlackApiError('cannot_modify_primary_owner')
        // Only owners may change an owner's role.
        if ((u.role === 'owner' || role === 'owner') && !(self.role === 'owner' || self.role === 'primary_owner'))
          throw new SlackApiError('not_an_owner')
        if (u.guest && role !== 'regular') throw new SlackApiError('user_is_restricted')
        stmt(
          db,
          "UPDATE slack_users SET role = ?, guest = CASE WHEN ? = 'regular' THEN '' ELSE guest END, expiration = CASE WHEN ? = 'regular' THEN 0 ELSE expiration END, updated = ? WHERE id = ?",
        ).run(role, role, role, nowSec(db), u.id)
        return {}
      }),
  })
roleChange('admin.users.setAdmin', 'admin', false)
roleChange('admin.users.setOwner', 'owner', true)
roleChange('admin.users.setRegular', 'regular', false)

slackMethod(adminUsersRouter, {
  name: 'admin.users.remove',
  args: z.object({ team_id: opt(), user_id: opt() }),
  scopes: W,
  tokens: USER,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = requireAdmin(c)
      checkTeam(db, a.team_id, true)
      const u = target(db, a.user_id)
      if (u.id === self.id) throw new SlackApiError('cannot_remove_self')
      if (u.role === 'primary_owner') throw new SlackApiError('cannot_remove_primary_owner')
      if (u.role === 'owner' && self.role !== 'owner' && self.role !== 'primary_owner')
        throw new SlackApiError('not_an_owner')
      if (u.deleted) throw new SlackApiError('user_already_deactivated')
      stmt(db, 'UPDATE slack_users SET deleted = 1, presence = ?, updated = ? WHERE id = ?').run(
        'away',
        nowSec(db),
        u.id,
      )
      revokeSessions(db, u.id)
      return {}
    }),
})

const guestKind = (a: { is_restricted?: boolean; is_ultra_restricted?: boolean }) =>
  a.is_ultra_restricted ? 'ultra_restricted' : a.is_restricted ? 'restricted' : ''
function checkChannels(db: Db, ids: string[]) {
  for (const id of ids) {
    const ch = channelById(db, id)
    if (!ch || ch.kind === 'im' || ch.kind === 'mpim') throw new SlackApiError('channel_not_found')
  }
}

slackMethod(adminUsersRouter, {
  name: 'admin.users.assign',
  args: z.object({
    team_id: opt(),
    user_id: opt(),
    is_restricted: slackBool().optional(),
    is_ultra_restricted: slackBool().optional(),
    channel_ids: opt(),
  }),
  scopes: W,
  tokens: USER,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      requireAdmin(c)
      checkTeam(db, a.team_id, true)
      const u = target(db, a.user_id)
      checkChannels(db, idList(a.channel_ids))
      // A world is one workspace: every member already belongs to it.
      if (u.deleted === 0) throw new SlackApiError('user_already_team_member')
      stmt(db, 'UPDATE slack_users SET deleted = 0, guest = ?, updated = ? WHERE id = ?').run(
        guestKind(a),
        nowSec(db),
        u.id,
      )
      for (const ch of idList(a.channel_ids))
        stmt(db, 'INSERT INTO slack_members (channel_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING').run(ch, u.id)
      return {}
    }),
})

slackMethod(adminUsersRouter, {
  name: 'admin.users.invite',
  args: z.object({
    team_id: opt(),
    email: opt(),
    channel_ids: opt(),
    custom_message: opt(),
    real_name: opt(),
    resend: slackBool().optional(),
    is_restricted: slackBool().optional(),
    is_ultra_restricted: slackBool().optional(),
    guest_expiration_ts: opt(),
  }),
  scopes: W,
  tokens: USER,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = requireAdmin(c)
      checkTeam(db, a.team_id, true)
      const email = (a.email ?? '').trim().toLowerCase()
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new SlackApiError('invalid_email')
      const channels = idList(a.channel_ids)
      if (channels.length === 0) throw new SlackApiError('invalid_arguments')
      checkChannels(db, channels)
      const kind = guestKind(a)
      if (kind === 'ultra_restricted' && channels.length !== 1) throw new SlackApiError('ura_max_channels')
      const member = findUserByEmail(db, email)
      if (member && allUsers(db).some((u) => u.world_user_id === member.id && !u.deleted))
        throw new SlackApiError('already_in_team')
      const pending = stmt(
        db,
        "SELECT id FROM slack_invites WHERE kind = 'invite' AND email = ? AND status = 'pending'",
      ).get(email) as { id: string } | undefined
      if (pending && !a.resend) throw new SlackApiError('already_invited')
      if (pending) stmt(db, 'UPDATE slack_invites SET created = ? WHERE id = ?').run(nowSec(db), pending.id)
      else
        stmt(
          db,
          'INSERT INTO slack_invites (id, kind, email, real_name, channels, message, guest, requester, created) VALUES (?,?,?,?,?,?,?,?,?)',
        ).run(
          slackId(db, 'I'),
          'invite',
          email,
          a.real_name ?? '',
          JSON.stringify(channels),
          a.custom_message ?? '',
          kind,
          self.id,
          nowSec(db),
        )
      return {}
    }),
})

slackMethod(adminUsersRouter, {
  name: 'admin.users.setExpiration',
  args: z.object({ team_id: opt(), user_id: opt(), expiration_ts: slackInt().optional() }),
  scopes: W,
  tokens: USER,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      requireAdmin(c)
      checkTeam(db, a.team_id)
      const u = target(db, a.user_id)
      if (!u.guest) throw new SlackApiError('user_not_guest')
      if (a.expiration_ts === undefined || a.expiration_ts <= nowSec(db))
        throw new SlackApiError('invalid_expiration_ts')
      stmt(db, 'UPDATE slack_users SET expiration = ? WHERE id = ?').run(a.expiration_ts, u.id)
      return {}
    }),
})
slackMethod(adminUsersRouter, {
  name: 'admin.users.getExpiration',
  args: z.object({ team_id: opt(), user_id: opt() }),
  scopes: R,
  tokens: USER,
  handler: (c, a) => {
    requireAdmin(c)
    checkTeam(c.var.world.db, a.team_id)
    const u = target(c.var.world.db, a.user_id)
    if (!u.guest) throw new SlackApiError('user_not_guest')
    return { expiration_ts: u.expiration }
  },
})

// Sessions.
type SessionRow = {
  id: number
  user_id: string
  client: string
  user_agent: string
  ip: string
  created: number
  last_active: number
  revoked: number
}
const device = (s: SessionRow, at: number) => ({
  device_hardware: s.client === 'mobile' ? 'iPhone' : 'Mac',
  os: s.client === 'mobile' ? 'iOS' : 'Mac OS X',
  os_version: s.client === 'mobile' ? '17.5' : '10.15.7',
  slack_client_version: s.client === 'web' ? '' : '4.39.95',
  ip: s.ip,
  created: at,
})
slackMethod(adminUsersRouter, {
  name: 'admin.users.session.list',
  args: z.object({ user_id: opt(), team_id: opt(), cursor: opt(), limit: slackInt().optional() }),
  scopes: R,
  tokens: USER,
  handler: (c, a) => {
    requireAdmin(c)
    const db = c.var.world.db
    checkTeam(db, a.team_id)
    if ((a.user_id === undefined) !== (a.team_id === undefined)) throw new SlackApiError('invalid_arguments')
    if (a.user_id) target(db, a.user_id)
    const rows = (stmt(db, 'SELECT * FROM slack_sessions WHERE revoked = 0 ORDER BY id').all() as SessionRow[]).filter(
      (s) => !a.user_id || s.user_id === a.user_id,
    )
    const { page, next } = cursorPage(rows, a.limit ?? 100, a.cursor)
    return {
      active_sessions: page.map((s) => ({
        user_id: s.user_id,
        team_id: teamId(db),
        session_id: s.id,
        created: device(s, s.created),
        recent: device(s, s.last_active),
      })),
      response_metadata: { next_cursor: next },
    }
  },
})
const resetArgs = z.object({ mobile_only: slackBool().optional(), web_only: slackBool().optional() })
const client = (a: { mobile_only?: boolean; web_only?: boolean }) =>
  a.mobile_only ? 'mobile' : a.web_only ? 'web' : undefined
slackMethod(adminUsersRouter, {
  name: 'admin.users.session.reset',
  args: resetArgs.extend({ user_id: opt() }),
  scopes: W,
  tokens: USER,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      requireAdmin(c)
      revokeSessions(db, target(db, a.user_id).id, client(a))
      return {}
    }),
})
slackMethod(adminUsersRouter, {
  name: 'admin.users.session.resetBulk',
  args: resetArgs.extend({ user_ids: z.unknown().optional() }),
  scopes: W,
  tokens: USER,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      requireAdmin(c)
      const ids = idList(a.user_ids)
      if (ids.length === 0 || ids.length > 1000) throw new SlackApiError('invalid_arguments')
      for (const u of ids.map((id) => target(db, id))) revokeSessions(db, u.id, client(a))
      return {}
    }),
})
slackMethod(adminUsersRouter, {
  name: 'admin.users.session.invalidate',
  args: z.object({ team_id: opt(), session_id: slackInt().optional() }),
  scopes: W,
  tokens: USER,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      requireAdmin(c)
      checkTeam(db, a.team_id, true)
      const r = stmt(db, 'UPDATE slack_sessions SET revoked = 1 WHERE id = ? AND revoked = 0').run(a.session_id ?? -1)
      if (r.changes === 0) throw new SlackApiError('invalid_session')
      return {}
    }),
})

type Settings = { desktop_app_browser_quit?: boolean; duration?: number }
const usersArg = z.object({ user_ids: z.unknown().optional() })
const settingsTargets = (db: Db, v: unknown) => {
  const ids = idList(v)
  if (ids.length === 0 || ids.length > 1000) throw new SlackApiError('invalid_arguments')
  return ids.map((id) => target(db, id))
}
slackMethod(adminUsersRouter, {
  name: 'admin.users.session.getSettings',
  args: usersArg,
  scopes: R,
  tokens: USER,
  handler: (c, a) => {
    requireAdmin(c)
    const users = settingsTargets(c.var.world.db, a.user_ids)
    const set = users.filter((u) => Object.keys(parseJson<Settings>(u.session_settings, {})).length > 0)
    return {
      session_settings: set.map((u) => ({ user_id: u.id, ...parseJson<Settings>(u.session_settings, {}) })),
      no_settings_applied: users.filter((u) => !set.includes(u)).map((u) => u.id),
    }
  },
})
slackMethod(adminUsersRouter, {
  name: 'admin.users.session.setSettings',
  args: usersArg.extend({ desktop_app_browser_quit: slackBool().optional(), duration: slackInt().optional() }),
  scopes: W,
  tokens: USER,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      requireAdmin(c)
      const users = settingsTargets(db, a.user_ids)
      if (a.desktop_app_browser_quit === undefined && a.duration === undefined)
        throw new SlackApiError('invalid_arguments')
      if (a.duration !== undefined && (a.duration < 1 || a.duration > 315_569_520))
        throw new SlackApiError('invalid_duration')
      for (const u of users) {
        const next: Settings = { ...parseJson<Settings>(u.session_settings, {}) }
        if (a.desktop_app_browser_quit !== undefined) next.desktop_app_browser_quit = a.desktop_app_browser_quit
        if (a.duration !== undefined) next.duration = a.duration
        stmt(db, 'UPDATE slack_users SET session_settings = ? WHERE id = ?').run(JSON.stringify(next), u.id)
      }
      return {}
    }),
})
slackMethod(adminUsersRouter, {
  name: 'admin.users.session.clearSettings',
  args: usersArg,
  scopes: W,
  tokens: USER,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      requireAdmin(c)
      for (const u of settingsTargets(db, a.user_ids))
        stmt(db, "UPDATE slack_users SET session_settings = '{}' WHERE id = ?").run(u.id)
      return {}
    }),
})
