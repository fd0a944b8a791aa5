import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { getMeta, setMeta } from '../../core/clock.ts'
import { createSlackRouter, slackBool, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import {
  allUsers,
  channelById,
  cursorPage,
  membersOf,
  nowSec,
  parseJson,
  teamDomain,
  teamId,
  userById,
  worldUserOf,
} from '../store/core.ts'
import { checkTeam, idList, isAdminRole, requireAdmin, teamName } from '../store/admin.ts'
import { customEmoji, emojiByName, emojiRows } from '../store/emoji.ts'

// Workspace administration: custom emoji, workspace settings, usergroup default channels and
// invite requests. Deviation: Slack serves admin.* to Enterprise Grid org admins only; a world is one
// workspace, so its admins and owners may use them.

export const adminTeamRouter = createSlackRouter()
const opt = () => z.string().optional()
const USER = ['slack_user'] as const

type Handler<A> = (c: WorldContext, a: A) => Record<string, unknown>
function admin<S extends z.ZodType>(name: string, args: S, scope: string, handler: Handler<z.output<S>>) {
  slackMethod(adminTeamRouter, {
    name,
    args,
    scopes: { user: [scope] },
    tokens: USER,
    handler: (c, a) => {
      requireAdmin(c)
      return handler(c, a)
    },
  })
}

// Emoji.
const EMOJI_NAME = /^[a-z0-9_'+-]{1,100}$/
const emojiName = (v: string | undefined) => {
  const n = (v ?? '').replace(/^:|:$/g, '')
  if (!EMOJI_NAME.test(n)) throw new SlackApiError('invalid_name')
  return n
}
const insertEmoji = (db: Db, name: string, url: string, alias: string | null, user: string) =>
  stmt(db, 'INSERT INTO slack_emoji (name, url, alias_for, user_id, created) VALUES (?,?,?,?,?)').run(
    name,
    url,
    alias,
    user,
    nowSec(db),
  )

admin('admin.emoji.add', z.object({ name: opt(), url: opt() }), 'admin.teams:write', (c, a) =>
  c.var.world.tx((db) => {
    const name = emojiName(a.name)
    if (!a.url || !/^https?:\/\/\S+$/.test(a.url)) throw new SlackApiError('invalid_url')
    if (emojiByName(db, name)) throw new SlackApiError('error_name_taken')
    insertEmoji(db, name, a.url, null, requireAdmin(c).id)
    return {}
  }),
)
admin('admin.emoji.addAlias', z.object({ name: opt(), alias_for: opt() }), 'admin.teams:write', (c, a) =>
  c.var.world.tx((db) => {
    const name = emojiName(a.name)
    const target = emojiByName(db, (a.alias_for ?? '').replace(/^:|:$/g, ''))
    if (!target) throw new SlackApiError('emoji_not_found')
    if (emojiByName(db, name)) throw new SlackApiError('error_name_taken')
    insertEmoji(db, name, '', target.alias_for ?? target.name, requireAdmin(c).id)
    return {}
  }),
)
admin('admin.emoji.remove', z.object({ name: opt() }), 'admin.teams:write', (c, a) =>
  c.var.world.tx((db) => {
    const e = emojiByName(db, (a.name ?? '').replace(/^:|:$/g, ''))
    if (!e) throw new SlackApiError('emoji_not_found')
    // Removing an emoji removes its aliases too.
    stmt(db, 'DELETE FROM slack_emoji WHERE name = ? OR alias_for = ?').run(e.name, e.name)
    return {}
  }),
)
admin('admin.emoji.rename', z.object({ name: opt(), new_name: opt() }), 'admin.teams:write', (c, a) =>
  c.var.world.tx((db) => {
    const e = emojiByName(db, (a.name ?? '').replace(/^:|:$/g, ''))
    if (!e) throw new SlackApiError('emoji_not_found')
    const next = emojiName(a.new_name)
    if (emojiByName(db, next)) throw new SlackApiError('error_name_taken')
    stmt(db, 'UPDATE slack_emoji SET name = ? WHERE name = ?').run(next, e.name)
    stmt(db, 'UPDATE slack_emoji SET alias_for = ? WHERE alias_for = ?').run(next, e.name)
    return {}
  }),
)
admin('admin.emoji.list', z.object({ cursor: opt(), limit: slackInt().optional() }), 'admin.teams:read', (c, a) => {
  const db = c.var.world.db
  const rows = emojiRows(db)
  const all = customEmoji(db)
  const { page, next } = cursorPage(rows, a.limit ?? 100, a.cursor)
  return {
    emoji: Object.fromEntries(
      page.map((e) => [e.name, { url: all[e.name], date_created: e.created, uploaded_by: e.user_id }]),
    ),
    response_metadata: { next_cursor: next },
  }
})

// Workspace settings (world_meta `slack_team_*`).
const teamIcon = (db: Db) => {
  const url = getMeta(db, 'slack_team_icon')
  return url
    ? {
        image_default: false,
        image_original: url,
        ...Object.fromEntries([34, 44, 68, 88, 102, 132, 230].map((n) => [`image_${n}`, url])),
      }
    : { image_default: true }
}
const DISCOVERABILITY = ['open', 'invite_only', 'closed', 'unlisted']
const ownerOf = (db: Db) =>
  allUsers(db).find((u) => u.role === 'primary_owner') ?? allUsers(db).find((u) => u.role === 'owner')
admin('admin.teams.list', z.object({ limit: slackInt().optional(), cursor: opt() }), 'admin.teams:read', (c, a) => {
  const db = c.var.world.db
  const owner = ownerOf(db)
  const team = {
    id: teamId(db),
    name: teamName(db),
    discoverability: getMeta(db, 'slack_team_discoverability') ?? 'invite_only',
    primary_owner: { user_id: owner?.id ?? '', email: owner ? (worldUserOf(db, owner)?.email ?? '') : '' },
    team_url: `https://${teamDomain(db)}.slack.com/`,
  }
  const { page, next } = cursorPage([team], a.limit, a.cursor)
  return { teams: page, response_metadata: { next_cursor: next } }
})
for (const [name, key, pick] of [
  ['admin.teams.admins.list', 'admin_ids', isAdminRole],
  ['admin.teams.owners.list', 'owner_ids', (r: string) => r === 'owner' || r === 'primary_owner'],
] as const) {
  admin(name, z.object({ team_id: opt(), limit: slackInt().optional(), cursor: opt() }), 'admin.teams:read', (c, a) => {
    const db = c.var.world.db
    checkTeam(db, a.team_id, true)
    const ids = allUsers(db)
      .filter((u) => !u.deleted && pick(u.role))
      .map((u) => u.id)
    const { page, next } = cursorPage(ids, a.limit, a.cursor)
    return { [key]: page, response_metadata: { next_cursor: next } }
  })
}
admin('admin.teams.settings.info', z.object({ team_id: opt() }), 'admin.teams:read', (c, a) => {
  const db = c.var.world.db
  checkTeam(db, a.team_id, true)
  return {
    team: {
      id: teamId(db),
      name: teamName(db),
      domain: teamDomain(db),
      email_domain: getMeta(db, 'domain') ?? '',
      icon: teamIcon(db),
      enterprise_id: null,
      enterprise_name: null,
      is_verified: false,
      description: getMeta(db, 'slack_team_description') ?? '',
      discoverability: getMeta(db, 'slack_team_discoverability') ?? 'invite_only',
      default_channels: parseJson<string[]>(
        getMeta(db, 'slack_team_default_channels'),
        (stmt(db, 'SELECT id FROM slack_channels WHERE is_general = 1').all() as { id: string }[]).map((r) => r.id),
      ),
    },
  }
})
const setting = <K extends string>(name: string, arg: K, check: (v: string, db: Db) => string, key: string) =>
  admin(
    name,
    z.object({ team_id: opt(), [arg]: z.unknown().optional() }),
    'admin.teams:write',
    (c, a: Record<string, unknown>) =>
      c.var.world.tx((db) => {
        checkTeam(db, a.team_id as string | undefined, true)
        setMeta(
          db,
          key,
          check(
            typeof a[arg] === 'string' || Array.isArray(a[arg])
              ? Array.isArray(a[arg])
                ? JSON.stringify(a[arg])
                : (a[arg] as string)
              : '',
            db,
          ),
        )
        return {}
      }),
  )
setting(
  'admin.teams.settings.setName',
  'name',
  (v) => {
    if (!v.trim() || v.length > 250) throw new SlackApiError('invalid_name')
    return v.trim()
  },
  'slack_team_name',
)
setting(
  'admin.teams.settings.setDescription',
  'description',
  (v) => {
    if (v.length > 250) throw new SlackApiError('too_long')
    return v
  },
  'slack_team_description',
)
setting(
  'admin.teams.settings.setDiscoverability',
  'discoverability',
  (v) => {
    if (!DISCOVERABILITY.includes(v)) throw new SlackApiError('invalid_discoverability')
    return v
  },
  'slack_team_discoverability',
)
setting(
  'admin.teams.settings.setIcon',
  'image_url',
  (v) => {
    if (!/^https?:\/\/\S+$/.test(v)) throw new SlackApiError('invalid_image_url')
    return v
  },
  'slack_team_icon',
)
setting(
  'admin.teams.settings.setDefaultChannels',
  'channel_ids',
  (v, db) => {
    const ids = idList(v)
    if (ids.length === 0) throw new SlackApiError('invalid_arguments')
    for (const id of ids) if (channelById(db, id)?.kind !== 'channel') throw new SlackApiError('channel_not_found')
    return JSON.stringify(ids)
  },
  'slack_team_default_channels',
)

// Usergroup default channels (slack_usergroups.channels).
type Group = { id: string; channels: string }
const groupOf = (db: Db, id: string | undefined) => {
  const g = stmt(db, 'SELECT id, channels FROM slack_usergroups WHERE id = ?').get(id ?? '') as Group | undefined
  if (!g) throw new SlackApiError('no_such_subteam')
  return g
}
const groupChannels = (db: Db, a: { usergroup_id?: string; channel_ids?: unknown; team_id?: string }) => {
  checkTeam(db, a.team_id)
  const g = groupOf(db, a.usergroup_id)
  const ids = idList(a.channel_ids)
  if (ids.length === 0) throw new SlackApiError('invalid_arguments')
  for (const id of ids) {
    const ch = channelById(db, id)
    if (!ch || ch.kind === 'im' || ch.kind === 'mpim') throw new SlackApiError('channel_not_found')
  }
  return { g, ids, current: parseJson<string[]>(g.channels, []) }
}
const ugArgs = z.object({ usergroup_id: opt(), channel_ids: z.unknown().optional(), team_id: opt() })
admin('admin.usergroups.addChannels', ugArgs, 'admin.usergroups:write', (c, a) =>
  c.var.world.tx((db) => {
    const { g, ids, current } = groupChannels(db, a)
    stmt(db, 'UPDATE slack_usergroups SET channels = ?, updated = ? WHERE id = ?').run(
      JSON.stringify([...new Set([...current, ...ids])]),
      nowSec(db),
      g.id,
    )
    return {}
  }),
)
admin('admin.usergroups.removeChannels', ugArgs, 'admin.usergroups:write', (c, a) =>
  c.var.world.tx((db) => {
    const { g, ids, current } = groupChannels(db, a)
    stmt(db, 'UPDATE slack_usergroups SET channels = ?, updated = ? WHERE id = ?').run(
      JSON.stringify(current.filter((x) => !ids.includes(x))),
      nowSec(db),
      g.id,
    )
    return {}
  }),
)
admin(
  'admin.usergroups.listChannels',
  z.object({ usergroup_id: opt(), team_id: opt(), include_num_members: slackBool().optional() }),
  'admin.usergroups:read',
  (c, a) => {
    const db = c.var.world.db
    checkTeam(db, a.team_id)
    const g = groupOf(db, a.usergroup_id)
    const channels = parseJson<string[]>(g.channels, []).flatMap((id) => {
      const ch = channelById(db, id)
      if (!ch) return []
      return [
        {
          id,
          name: ch.name,
          team_id: teamId(db),
          ...(a.include_num_members ? { num_members: membersOf(db, id).length } : {}),
        },
      ]
    })
    return { channels }
  },
)

// Invite requests (members asking admins to invite someone).
type Invite = {
  id: string
  kind: string
  email: string
  real_name: string
  channels: string
  message: string
  guest: string
  requester: string
  created: number
  status: string
  reviewer: string | null
  reviewed: number
}
const requestWire = (db: Db, r: Invite) => ({
  id: r.id,
  email: r.email,
  date_created: r.created,
  requester_ids: [r.requester],
  channel_ids: parseJson<string[]>(r.channels, []),
  invite_type: r.guest === 'ultra_restricted' ? 'single_channel_guest' : r.guest ? 'restricted' : 'full_member',
  real_name: r.real_name,
  date_expire: r.created + 30 * 86400,
  request_reason: r.message,
  team: { id: teamId(db), name: teamName(db), domain: teamDomain(db) },
})
const actor = (db: Db, id: string | null) => ({
  actor_type: 'user',
  actor_id: id ?? '',
  actor_name: id ? (userById(db, id)?.handle ?? '') : '',
})
const requests = (db: Db, status: string) =>
  stmt(db, "SELECT * FROM slack_invites WHERE kind = 'request' AND status = ? ORDER BY created, rowid").all(
    status,
  ) as Invite[]
const listArgs = z.object({ team_id: opt(), cursor: opt(), limit: slackInt().optional() })
admin('admin.inviteRequests.list', listArgs, 'admin.invites:read', (c, a) => {
  const db = c.var.world.db
  checkTeam(db, a.team_id)
  const { page, next } = cursorPage(requests(db, 'pending'), a.limit ?? 100, a.cursor)
  return { invite_requests: page.map((r) => requestWire(db, r)), response_metadata: { next_cursor: next } }
})
for (const [name, status, key, by] of [
  ['admin.inviteRequests.approved.list', 'approved', 'approved_requests', 'approved_by'],
  ['admin.inviteRequests.denied.list', 'denied', 'denied_requests', 'denied_by'],
] as const) {
  admin(name, listArgs, 'admin.invites:read', (c, a) => {
    const db = c.var.world.db
    checkTeam(db, a.team_id)
    const { page, next } = cursorPage(requests(db, status), a.limit ?? 100, a.cursor)
    return {
      [key]: page.map((r) => ({ invite_request: requestWire(db, r), [by]: actor(db, r.reviewer) })),
      response_metadata: { next_cursor: next },
    }
  })
}
for (const [name, status] of [
  ['admin.inviteRequests.approve', 'approved'],
  ['admin.inviteRequests.deny', 'denied'],
] as const) {
  admin(name, z.object({ team_id: opt(), invite_request_id: opt() }), 'admin.invites:write', (c, a) =>
    c.var.world.tx((db) => {
      checkTeam(db, a.team_id)
      const r = stmt(db, "SELECT * FROM slack_invites WHERE kind = 'request' AND id = ?").get(
        a.invite_request_id ?? '',
      ) as Invite | undefined
      if (!r) throw new SlackApiError('invalid_invite_request_id')
      if (r.status !== 'pending') throw new SlackApiError('invite_request_already_processed')
      const self = requireAdmin(c)
      stmt(db, 'UPDATE slack_invites SET status = ?, reviewer = ?, reviewed = ? WHERE id = ?').run(
        status,
        self.id,
        nowSec(db),
        r.id,
      )
      // Approving sends the invitation, as admin.users.invite would.
      if (status === 'approved') {
        stmt(
          db,
          "INSERT INTO slack_invites (id, kind, email, real_name, channels, message, guest, requester, created) VALUES (?, 'invite', ?, ?, ?, ?, ?, ?, ?)",
        ).run(`${r.id}-inv`, r.email, r.real_name, r.channels, r.message, r.guest, self.id, nowSec(db))
      }
      return {}
    }),
  )
}

// A world is one workspace: a usergroup already belongs to it, so only the world's team id is accepted.
admin(
  'admin.usergroups.addTeams',
  z.object({ usergroup_id: opt(), team_ids: z.unknown().optional(), auto_provision: slackBool().optional() }),
  'admin.teams:write',
  (c, a) => {
    const db = c.var.world.db
    groupOf(db, a.usergroup_id)
    const teams = idList(a.team_ids)
    if (teams.length === 0) throw new SlackApiError('invalid_arguments')
    for (const t of teams) checkTeam(db, t)
    return {}
  },
)
