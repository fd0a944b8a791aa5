import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { getMeta } from '../../core/clock.ts'
import { createSlackRouter, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import {
  allUsers,
  channelById,
  cursorPage,
  me,
  nowSec,
  parseJson,
  userById,
  teamId,
  worldUserOf,
} from '../store/core.ts'
import { idList, isAdminRole, requireAdmin } from '../store/admin.ts'

// admin.roles.* (role assignments) and the workspace reports of team.* (access logs, billable info,
// integration logs, billing plan, preferences).

export const adminRolesRouter = createSlackRouter()
const opt = () => z.string().optional()
const USER = ['slack_user'] as const

/**
 * Assignable admin roles. Deviation: Slack's role ids are per org; these four are the world's fixed
 * catalog. Channels Admin and Users Admin are scoped to the workspace, Channel Manager to a channel.
 */
export const ROLES: Record<string, { name: string; entity: 'team' | 'channel' }> = {
  Rl0A: { name: 'Channels Admin', entity: 'team' },
  Rl0B: { name: 'Users Admin', entity: 'team' },
  Rl0C: { name: 'Roles Admin', entity: 'team' },
  Rl0D: { name: 'Channel Manager', entity: 'channel' },
}
const roleOf = (id: string | undefined) => {
  if (!id || !Object.hasOwn(ROLES, id)) throw new SlackApiError('role_not_found')
  return ROLES[id]!
}
const entityOk = (db: Db, kind: 'team' | 'channel', id: string) =>
  kind === 'team' ? id === teamId(db) : ['channel', 'group'].includes(channelById(db, id)?.kind ?? '')

const assignArgs = z.object({ role_id: opt(), entity_ids: z.unknown().optional(), user_ids: z.unknown().optional() })
for (const [name, add] of [
  ['admin.roles.addAssignments', true],
  ['admin.roles.removeAssignments', false],
] as const) {
  slackMethod(adminRolesRouter, {
    name,
    args: assignArgs,
    scopes: { user: ['admin.roles:write'] },
    tokens: USER,
    handler: (c, a) =>
      c.var.world.tx((db) => {
        requireAdmin(c)
        const role = roleOf(a.role_id)
        const entities = idList(a.entity_ids)
        const users = idList(a.user_ids)
        if (entities.length === 0 || users.length === 0) throw new SlackApiError('invalid_arguments')
        const rejectedEntities = entities
          .filter((e) => !entityOk(db, role.entity, e))
          .map((id) => ({ id, error: 'invalid_entity' }))
        const rejectedUsers = users
          .filter((u) => {
            const r = userById(db, u)
            return !r || r.is_bot || r.deleted
          })
          .map((id) => ({ id, error: 'invalid_user' }))
        for (const e of entities) {
          if (rejectedEntities.some((r) => r.id === e)) continue
          for (const u of users) {
            if (rejectedUsers.some((r) => r.id === u)) continue
            if (add)
              stmt(
                db,
                'INSERT OR IGNORE INTO slack_role_assignments (role_id, user_id, entity_id, created) VALUES (?,?,?,?)',
              ).run(a.role_id, u, e, nowSec(db))
            else
              stmt(db, 'DELETE FROM slack_role_assignments WHERE role_id = ? AND user_id = ? AND entity_id = ?').run(
                a.role_id,
                u,
                e,
              )
          }
        }
        return add ? { rejected_users: rejectedUsers, rejected_entities: rejectedEntities } : {}
      }),
  })
}

slackMethod(adminRolesRouter, {
  name: 'admin.roles.listAssignments',
  scopes: { user: ['admin.roles:read'] },
  tokens: USER,
  args: z.object({
    role_ids: z.unknown().optional(),
    entity_ids: z.unknown().optional(),
    limit: slackInt().optional(),
    cursor: opt(),
    sort_dir: opt(),
  }),
  handler: (c, a) => {
    requireAdmin(c)
    const roles = idList(a.role_ids)
    for (const r of roles) roleOf(r)
    const entities = idList(a.entity_ids)
    if (a.sort_dir !== undefined && !['asc', 'desc'].includes(a.sort_dir)) throw new SlackApiError('invalid_sort_dir')
    if (a.limit !== undefined && (a.limit < 1 || a.limit > 200)) throw new SlackApiError('invalid_limit')
    const rows = (
      stmt(
        c.var.world.db,
        `SELECT * FROM slack_role_assignments ORDER BY created ${a.sort_dir === 'desc' ? 'DESC' : 'ASC'}, role_id, user_id`,
      ).all() as { role_id: string; user_id: string; entity_id: string; created: number }[]
    ).filter(
      (r) =>
        (roles.length === 0 || roles.includes(r.role_id)) && (entities.length === 0 || entities.includes(r.entity_id)),
    )
    const { page, next } = cursorPage(rows, a.limit ?? 100, a.cursor, 200)
    return {
      role_assignments: page.map((r) => ({
        role_id: r.role_id,
        entity_id: r.entity_id,
        user_id: r.user_id,
        date_create: r.created,
      })),
      response_metadata: { next_cursor: next },
    }
  },
})

// team.* reports. Scope `admin` and an admin caller: bots answer `user_is_bot`, members `no_permission`.
const reportCaller = (c: WorldContext) => {
  const u = me(c)
  if (u.is_bot) throw new SlackApiError('user_is_bot')
  if (!isAdminRole(u.role)) throw new SlackApiError('no_permission')
  return u
}
const paging = <T>(items: T[], count: number | undefined, page: number | undefined) => {
  const n = Math.min(Math.max(count ?? 100, 1), 1000)
  const p = Math.max(page ?? 1, 1)
  return {
    items: items.slice((p - 1) * n, p * n),
    paging: { count: n, total: items.length, page: p, pages: Math.max(1, Math.ceil(items.length / n)) },
  }
}

slackMethod(adminRolesRouter, {
  name: 'team.accessLogs',
  args: z.object({
    before: z.union([slackInt(), z.literal('now')]).optional(),
    count: slackInt().optional(),
    page: slackInt().optional(),
    team_id: opt(),
  }),
  scopes: { user: ['admin'] },
  handler: (c, a) => {
    reportCaller(c)
    const db = c.var.world.db
    const before = typeof a.before === 'number' ? a.before : Infinity
    const rows = stmt(db, 'SELECT * FROM slack_sessions WHERE created <= ? ORDER BY last_active DESC, id').all(
      Number.isFinite(before) ? before : Number.MAX_SAFE_INTEGER,
    ) as { user_id: string; user_agent: string; ip: string; created: number; last_active: number }[]
    const logins = rows.map((s) => ({
      user_id: s.user_id,
      username: userById(db, s.user_id)?.handle ?? '',
      date_first: s.created,
      date_last: s.last_active,
      count: 1,
      ip: s.ip,
      user_agent: s.user_agent,
      isp: 'Example ISP',
      country: 'US',
      region: 'CA',
    }))
    const { items, paging: p } = paging(logins, a.count, a.page)
    return { logins: items, paging: p }
  },
})

slackMethod(adminRolesRouter, {
  name: 'team.billableInfo',
  args: z.object({ user: opt(), team_id: opt(), limit: slackInt().optional(), cursor: opt() }),
  scopes: { user: ['admin'] },
  handler: (c, a) => {
    reportCaller(c)
    const db = c.var.world.db
    if (a.user && !userById(db, a.user)) throw new SlackApiError('user_not_found')
    const users = allUsers(db).filter((u) => !u.is_bot && (!a.user || u.id === a.user))
    const { page, next } = cursorPage(users, a.limit, a.cursor)
    return {
      billable_info: Object.fromEntries(
        page.map((u) => [u.id, { billing_active: u.deleted === 0 && u.guest !== 'ultra_restricted' }]),
      ),
      response_metadata: { next_cursor: next },
    }
  },
})

slackMethod(adminRolesRouter, {
  name: 'team.integrationLogs',
  scopes: { user: ['admin'] },
  args: z.object({
    app_id: opt(),
    change_type: opt(),
    count: slackInt().optional(),
    page: slackInt().optional(),
    service_id: opt(),
    user: opt(),
    team_id: opt(),
  }),
  handler: (c, a) => {
    reportCaller(c)
    const db = c.var.world.db
    if (a.change_type && !['added', 'removed', 'enabled', 'disabled', 'updated', 'expired'].includes(a.change_type))
      throw new SlackApiError('invalid_change_type')
    const installer = allUsers(db).find((u) => u.role !== 'regular' && !u.is_bot)
    // Every seeded bot was installed by the first admin when the workspace was seeded.
    const logs = allUsers(db)
      .filter((u) => u.is_bot && u.id !== 'USLACKBOT')
      .map((b) => ({
        app_id: `A${b.bot_id!.slice(1)}`,
        app_type: 'app',
        user_id: installer?.id ?? '',
        user_name: installer?.handle ?? '',
        date: String(b.updated),
        change_type: 'added',
        scope:
          (
            stmt(db, "SELECT scopes FROM world_tokens WHERE user_id = ? AND kind = 'slack_bot'").get(
              b.world_user_id,
            ) as { scopes: string } | undefined
          )?.scopes ?? '',
      }))
      .filter(
        (l) =>
          (!a.app_id || l.app_id === a.app_id) &&
          (!a.change_type || l.change_type === a.change_type) &&
          (!a.user || l.user_id === a.user) &&
          !a.service_id,
      )
    const { items, paging: p } = paging(logs, a.count, a.page)
    return { logs: items, paging: p }
  },
})

slackMethod(adminRolesRouter, {
  name: 'team.billing.info',
  args: z.object({}).passthrough(),
  scopes: { user: ['team.billing:read'] },
  tokens: USER,
  handler: (c) => ({ plan: getMeta(c.var.world.db, 'slack_plan') ?? 'pro' }),
})

/** Workspace preferences an app may read (team.preferences.list); world_meta `slack_team_prefs` overrides them. */
slackMethod(adminRolesRouter, {
  name: 'team.preferences.list',
  args: z.object({}).passthrough(),
  scopes: { user: ['team.preferences:read'], bot: ['team.preferences:read'] },
  handler: (c) => ({
    msg_edit_window_mins: -1,
    allow_message_deletion: true,
    display_real_names: false,
    disable_file_uploads: 'allow_all',
    who_can_post_general: 'ra',
    ...parseJson<Record<string, unknown>>(getMeta(c.var.world.db, 'slack_team_prefs'), {}),
  }),
})

// Slack Connect is not modelled, so a workspace has no external organizations to list.
slackMethod(adminRolesRouter, {
  name: 'team.externalTeams.list',
  scopes: { user: ['team:read'], bot: ['team:read'] },
  args: z.object({
    limit: slackInt().optional(),
    cursor: opt(),
    sort_field: opt(),
    sort_direction: opt(),
    slack_connect_pref_filter: z.unknown().optional(),
    workspace_filter: z.unknown().optional(),
    connection_status_filter: opt(),
  }),
  handler: (c, a) => {
    me(c)
    if (
      a.sort_field !== undefined &&
      !['team_name', 'last_active_timestamp', 'connection_status'].includes(a.sort_field)
    )
      throw new SlackApiError('invalid_sort_field')
    if (a.sort_direction !== undefined && !['asc', 'desc'].includes(a.sort_direction))
      throw new SlackApiError('invalid_sort_direction')
    if (a.cursor) cursorPage([], a.limit, a.cursor)
    return { organizations: [], total_count: 0, response_metadata: { next_cursor: '' } }
  },
})

/** Whether an address belongs to someone reachable in this workspace (an active member). */
slackMethod(adminRolesRouter, {
  name: 'users.discoverableContacts.lookup',
  scopes: { user: ['users:read.email'], bot: ['users:read.email'] },
  args: z.object({ email: z.string().optional() }),
  handler: (c, a) => {
    const db = c.var.world.db
    me(c)
    const email = (a.email ?? '').trim().toLowerCase()
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new SlackApiError('invalid_email')
    const member = allUsers(db).find(
      (u) => !u.is_bot && !u.deleted && worldUserOf(db, u)?.email.toLowerCase() === email,
    )
    return { is_discoverable: !!member }
  },
})
