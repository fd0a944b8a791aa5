import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { nextCounter, slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import {
  addMember,
  channelById,
  cursorPage,
  isMember,
  membersOf,
  nowSec,
  parseJson,
  teamId,
  userById,
  type ChannelRow,
} from '../store/core.ts'
import { systemMessage } from '../store/messages.ts'
import { adminChannel, checkTeam, idList, requireAdmin } from '../store/admin.ts'
import { channelPrefs, PREF_KEYS, parsePrefString } from '../store/prefs.ts'
import { parseJsonWithin } from '../../core/json-width.ts'

// admin.conversations.*: channel management by Workspace Admins and Owners, whether or not they are
// members. Deviation: Slack serves these to Enterprise Grid org admins only; a world is one workspace,
// so its admins and owners may use them (team ids other than the world's answer `team_not_found`).

export const adminConversationsRouter = createSlackRouter()
const opt = () => z.string().optional()
const W = { user: ['admin.conversations:write'] }
const R = { user: ['admin.conversations:read'] }
const USER = ['slack_user'] as const

function admin<S extends z.ZodType>(
  name: string,
  args: S,
  scopes: typeof W,
  handler: (c: WorldContext, a: z.output<S>) => Record<string, unknown>,
) {
  slackMethod(adminConversationsRouter, {
    name,
    args,
    scopes,
    tokens: USER,
    handler: (c, a) => {
      requireAdmin(c)
      return handler(c, a)
    },
  })
}

const checkName = (name: string | undefined) => {
  if (!name || name.length > 80 || !/^[a-z0-9_\-\u00C0-\uFFFF]+$/.test(name)) throw new SlackApiError('invalid_name')
  return name
}
const nameTaken = (db: Db, name: string, except = '') =>
  stmt(db, "SELECT 1 FROM slack_channels WHERE name = ? AND id != ? AND kind IN ('channel','group')").get(
    name,
    except,
  ) !== undefined
const touch = (db: Db, id: string) =>
  stmt(db, 'UPDATE slack_channels SET updated = ? WHERE id = ?').run(nowSec(db) * 1000, id)

admin(
  'admin.conversations.create',
  z.object({
    name: opt(),
    is_private: slackBool().optional(),
    description: opt(),
    org_wide: slackBool().optional(),
    team_id: opt(),
  }),
  W,
  (c, a) =>
    c.var.world.tx((db) => {
      checkTeam(db, a.team_id)
      if (a.is_private === undefined) throw new SlackApiError('invalid_arguments')
      const name = checkName(a.name)
      if (nameTaken(db, name)) throw new SlackApiError('name_taken')
      const user = requireAdmin(c)
      const id = slackId(db, 'C')
      const now = nowSec(db)
      stmt(
        db,
        'INSERT INTO slack_channels (id, name, kind, creator, created, updated, purpose, purpose_creator, purpose_last_set) VALUES (?,?,?,?,?,?,?,?,?)',
      ).run(
        id,
        name,
        a.is_private ? 'group' : 'channel',
        user.id,
        now,
        now * 1000,
        a.description ?? '',
        a.description ? user.id : '',
        a.description ? now : 0,
      )
      addMember(db, id, user.id)
      systemMessage(db, channelById(db, id)!, user.id, { subtype: 'channel_join' })
      return { channel_id: id }
    }),
)

admin('admin.conversations.archive', z.object({ channel_id: opt() }), W, (c, a) =>
  c.var.world.tx((db) => {
    const ch = archivable(db, a.channel_id)
    archive(db, ch, requireAdmin(c).id)
    return {}
  }),
)

function archivable(db: Db, id: string | undefined) {
  const ch = adminChannel(db, id)
  if (ch.is_general) throw new SlackApiError('cant_archive_general')
  if (ch.is_archived) throw new SlackApiError('already_archived')
  return ch
}
function archive(db: Db, ch: ChannelRow, by: string) {
  systemMessage(db, ch, by, { subtype: 'channel_archive' })
  stmt(db, 'UPDATE slack_channels SET is_archived = 1 WHERE id = ?').run(ch.id)
  touch(db, ch.id)
}

admin('admin.conversations.unarchive', z.object({ channel_id: opt() }), W, (c, a) =>
  c.var.world.tx((db) => {
    const ch = adminChannel(db, a.channel_id)
    if (!ch.is_archived) throw new SlackApiError('channel_not_archived')
    const by = requireAdmin(c).id
    stmt(db, 'UPDATE slack_channels SET is_archived = 0 WHERE id = ?').run(ch.id)
    systemMessage(db, ch, by, { subtype: 'channel_unarchive' })
    touch(db, ch.id)
    return {}
  }),
)

admin('admin.conversations.rename', z.object({ channel_id: opt(), name: opt() }), W, (c, a) =>
  c.var.world.tx((db) => {
    const ch = adminChannel(db, a.channel_id)
    const name = checkName(a.name)
    if (nameTaken(db, name, ch.id)) throw new SlackApiError('name_taken')
    if (name === ch.name) return {}
    const prev = [...parseJson<string[]>(ch.previous_names, []), ch.name]
    stmt(db, 'UPDATE slack_channels SET name = ?, previous_names = ? WHERE id = ?').run(
      name,
      JSON.stringify(prev),
      ch.id,
    )
    const by = requireAdmin(c).id
    systemMessage(db, ch, by, { subtype: 'channel_name', old_name: ch.name, name })
    touch(db, ch.id)
    return {}
  }),
)

admin('admin.conversations.invite', z.object({ channel_id: opt(), user_ids: z.unknown().optional() }), W, (c, a) =>
  c.var.world.tx((db) => {
    const ch = adminChannel(db, a.channel_id)
    if (ch.is_archived) throw new SlackApiError('is_archived')
    const by = requireAdmin(c).id
    const ids = idList(a.user_ids)
    if (ids.length === 0) throw new SlackApiError('invalid_arguments')
    const failed = ids.filter((id) => {
      const u = userById(db, id)
      return !u || u.deleted === 1
    })
    if (failed.length > 0)
      throw new SlackApiError('failed_for_some_users', {
        failed_user_ids: Object.fromEntries(failed.map((id) => [id, 'user_not_found'])),
      })
    for (const id of ids) {
      if (isMember(db, ch.id, id)) continue
      addMember(db, ch.id, id)
      systemMessage(db, ch, id, { subtype: 'channel_join', inviter: by })
    }
    return {}
  }),
)

for (const [name, from, to] of [
  ['admin.conversations.convertToPrivate', 'channel', 'group'],
  ['admin.conversations.convertToPublic', 'group', 'channel'],
] as const) {
  admin(name, z.object({ channel_id: opt(), name: opt() }), W, (c, a) =>
    c.var.world.tx((db) => {
      const ch = adminChannel(db, a.channel_id)
      if (ch.is_general) throw new SlackApiError('default_org_wide_channel')
      if (ch.kind !== from) throw new SlackApiError('method_not_supported_for_channel_type')
      if (a.name !== undefined) {
        const n = checkName(a.name)
        if (nameTaken(db, n, ch.id)) throw new SlackApiError('name_taken')
        stmt(db, 'UPDATE slack_channels SET name = ? WHERE id = ?').run(n, ch.id)
      }
      stmt(db, 'UPDATE slack_channels SET kind = ? WHERE id = ?').run(to, ch.id)
      const subtype = to === 'group' ? 'channel_convert_to_private' : 'channel_convert_to_public'
      systemMessage(db, ch, requireAdmin(c).id, { subtype })
      touch(db, ch.id)
      return {}
    }),
  )
}

/** Removes a channel and everything in it. */
function deleteChannel(db: Db, id: string) {
  for (const t of [
    'slack_members',
    'slack_messages',
    'slack_reactions',
    'slack_pins',
    'slack_bookmarks',
    'slack_stars',
    'slack_unfurls',
    'slack_streams',
    'slack_assistant_threads',
    'slack_access',
  ] as const) {
    stmt(db, `DELETE FROM ${t} WHERE ${t === 'slack_access' ? 'entity_id' : 'channel_id'} = ?`).run(id)
  }
  stmt(db, "UPDATE slack_scheduled SET status = 'deleted' WHERE channel_id = ? AND status = 'pending'").run(id)
  stmt(
    db,
    'UPDATE slack_files SET channels = (SELECT json_group_array(value) FROM json_each(slack_files.channels) WHERE value != ?) WHERE EXISTS (SELECT 1 FROM json_each(slack_files.channels) WHERE value = ?)',
  ).run(id, id)
  stmt(db, 'UPDATE slack_canvases SET channel_id = NULL WHERE channel_id = ?').run(id)
  stmt(db, 'DELETE FROM slack_channels WHERE id = ?').run(id)
}
const deletable = (db: Db, id: string | undefined) => {
  const ch = adminChannel(db, id)
  if (ch.is_general) throw new SlackApiError('default_org_wide_channel')
  return ch
}

admin('admin.conversations.delete', z.object({ channel_id: opt() }), W, (c, a) =>
  c.var.world.tx((db) => {
    deleteChannel(db, deletable(db, a.channel_id).id)
    return {}
  }),
)

// Deviation: Slack runs bulk actions in the background; here they complete before the response.
for (const [name, act] of [
  ['admin.conversations.bulkArchive', 'archive'],
  ['admin.conversations.bulkDelete', 'delete'],
] as const) {
  admin(name, z.object({ channel_ids: z.unknown().optional() }), W, (c, a) =>
    c.var.world.tx((db) => {
      const ids = idList(a.channel_ids)
      if (ids.length === 0 || ids.length > 100) throw new SlackApiError('invalid_arguments')
      const chans = ids.map((id) => (act === 'archive' ? archivable(db, id) : deletable(db, id)))
      const by = requireAdmin(c).id
      for (const ch of chans)
        if (act === 'archive') archive(db, ch, by)
        else deleteChannel(db, ch.id)
      return { bulk_action_id: `Ba${String(nextCounter(db, 'slack.bulk')).padStart(8, '0')}` }
    }),
  )
}

admin(
  'admin.conversations.setConversationPrefs',
  z.object({ channel_id: opt(), prefs: z.unknown().optional() }),
  W,
  (c, a) =>
    c.var.world.tx((db) => {
      const ch = adminChannel(db, a.channel_id)
      let raw: unknown = a.prefs
      if (typeof raw === 'string') {
        try {
          raw = parseJsonWithin(raw)
        } catch {
          throw new SlackApiError('invalid_arguments')
        }
      }
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new SlackApiError('invalid_arguments')
      const next = { ...channelPrefs(ch) }
      for (const [k, v] of Object.entries(raw)) {
        if (!(PREF_KEYS as readonly string[]).includes(k) || typeof v !== 'string')
          throw new SlackApiError('invalid_arguments')
        next[k as (typeof PREF_KEYS)[number]] = parsePrefString(db, v)
      }
      stmt(db, 'UPDATE slack_channels SET prefs = ? WHERE id = ?').run(JSON.stringify(next), ch.id)
      return {}
    }),
)

admin('admin.conversations.getConversationPrefs', z.object({ channel_id: opt() }), R, (c, a) => {
  const ch = adminChannel(c.var.world.db, a.channel_id)
  return { prefs: channelPrefs(ch) }
})

admin(
  'admin.conversations.getTeams',
  z.object({ channel_id: opt(), cursor: opt(), limit: slackInt().optional() }),
  R,
  (c, a) => {
    adminChannel(c.var.world.db, a.channel_id)
    return { teams: [teamId(c.var.world.db)] }
  },
)

admin('admin.conversations.getCustomRetention', z.object({ channel_id: opt() }), R, (c, a) => {
  const ch = adminChannel(c.var.world.db, a.channel_id)
  return { duration_days: ch.retention, is_policy_enabled: ch.retention > 0 }
})
admin(
  'admin.conversations.setCustomRetention',
  z.object({ channel_id: opt(), duration_days: slackInt().optional() }),
  W,
  (c, a) =>
    c.var.world.tx((db) => {
      const ch = adminChannel(db, a.channel_id)
      if (a.duration_days === undefined || a.duration_days < 1 || a.duration_days > 36500)
        throw new SlackApiError('invalid_duration_days')
      stmt(db, 'UPDATE slack_channels SET retention = ? WHERE id = ?').run(a.duration_days, ch.id)
      return {}
    }),
)
admin('admin.conversations.removeCustomRetention', z.object({ channel_id: opt() }), W, (c, a) =>
  c.var.world.tx((db) => {
    const ch = adminChannel(db, a.channel_id)
    stmt(db, 'UPDATE slack_channels SET retention = 0 WHERE id = ?').run(ch.id)
    return {}
  }),
)

/** The search hit shape of admin.conversations.search. */
function searchWire(db: Db, ch: ChannelRow) {
  const last = stmt(db, 'SELECT MAX(ts) AS ts FROM slack_messages WHERE channel_id = ?').get(ch.id) as {
    ts: string | null
  }
  return {
    id: ch.id,
    name: ch.name,
    purpose: ch.purpose,
    member_count: membersOf(db, ch.id).length,
    created: ch.created,
    creator_id: ch.creator,
    is_private: ch.kind === 'group',
    is_archived: ch.is_archived === 1,
    is_general: ch.is_general === 1,
    last_activity_ts: Math.floor(Number(last.ts ?? 0) * 1000),
    is_ext_shared: false,
    is_global_shared: false,
    is_org_default: false,
    is_org_mandatory: false,
    is_org_shared: false,
    is_frozen: false,
    internal_team_ids_count: 1,
    internal_team_ids_sample_team: teamId(db),
    connected_team_ids: [],
    connected_limited_team_ids: [],
    pending_connected_team_ids: [],
    channel_email_addresses: [],
    context_team_id: teamId(db),
    conversation_host_id: teamId(db),
  }
}

const CHANNEL_TYPES = [
  'private',
  'private_exclude',
  'archived',
  'exclude_archived',
  'private_exclude_archived',
  'multi_workspace',
  'org_wide',
  'external_shared_exclude',
  'external_shared',
  'external_shared_private',
  'external_shared_archived',
  'exclude_org_shared',
  'public',
]
admin(
  'admin.conversations.search',
  z.object({
    query: opt(),
    limit: slackInt().optional(),
    cursor: opt(),
    search_channel_types: opt(),
    sort: opt(),
    sort_dir: opt(),
    team_ids: opt(),
  }),
  R,
  (c, a) => {
    const db = c.var.world.db
    for (const t of idList(a.team_ids)) checkTeam(db, t)
    const types = idList(a.search_channel_types)
    if (types.some((t) => !CHANNEL_TYPES.includes(t))) throw new SlackApiError('invalid_search_channel_type')
    const sort = a.sort ?? 'member_count'
    if (!['relevant', 'name', 'member_count', 'created'].includes(sort)) throw new SlackApiError('invalid_sort')
    if (a.sort_dir !== undefined && !['asc', 'desc'].includes(a.sort_dir)) throw new SlackApiError('invalid_sort_dir')
    if (a.limit !== undefined && (a.limit < 1 || a.limit > 20)) throw new SlackApiError('invalid_limit')
    const q = (a.query ?? '').toLowerCase()
    let rows = (
      stmt(db, "SELECT * FROM slack_channels WHERE kind IN ('channel','group') ORDER BY rowid").all() as ChannelRow[]
    ).filter((ch) => !q || ch.name.includes(q) || ch.purpose.toLowerCase().includes(q))
    for (const t of types) {
      if (t === 'private') rows = rows.filter((ch) => ch.kind === 'group')
      if (t === 'private_exclude' || t === 'public') rows = rows.filter((ch) => ch.kind === 'channel')
      if (t === 'archived') rows = rows.filter((ch) => ch.is_archived === 1)
      if (t === 'exclude_archived') rows = rows.filter((ch) => ch.is_archived === 0)
      if (t === 'private_exclude_archived') rows = rows.filter((ch) => ch.kind === 'group' && ch.is_archived === 0)
      if (t.startsWith('external_shared') || t === 'multi_workspace' || t === 'org_wide') rows = []
    }
    const hits = rows.map((ch) => searchWire(db, ch))
    const dir = (a.sort_dir ?? (sort === 'name' ? 'asc' : 'desc')) === 'asc' ? 1 : -1
    const key = (h: ReturnType<typeof searchWire>) =>
      sort === 'name'
        ? h.name
        : sort === 'created'
          ? h.created
          : sort === 'relevant'
            ? h.name === q
              ? 2
              : h.name.startsWith(q)
                ? 1
                : 0
            : h.member_count
    hits.sort((x, y) => (key(x) < key(y) ? -dir : key(x) > key(y) ? dir : x.name < y.name ? -1 : 1))
    const { page, next } = cursorPage(hits, a.limit ?? 10, a.cursor, 20)
    return { conversations: page, next_cursor: next, total_count: hits.length }
  },
)

admin(
  'admin.conversations.lookup',
  z.object({
    last_message_activity_before: slackInt().optional(),
    team_ids: opt(),
    max_member_count: slackInt().optional(),
    limit: slackInt().optional(),
    cursor: opt(),
  }),
  R,
  (c, a) => {
    const db = c.var.world.db
    const teams = idList(a.team_ids)
    if (teams.length === 0 || a.last_message_activity_before === undefined) throw new SlackApiError('invalid_arguments')
    for (const t of teams) checkTeam(db, t)
    const before = a.last_message_activity_before
    const rows = (
      stmt(
        db,
        "SELECT * FROM slack_channels WHERE kind IN ('channel','group') AND is_archived = 0 ORDER BY rowid",
      ).all() as ChannelRow[]
    ).filter((ch) => {
      const last = stmt(db, 'SELECT MAX(ts) AS ts FROM slack_messages WHERE channel_id = ?').get(ch.id) as {
        ts: string | null
      }
      const activity = last.ts ? Number(last.ts) : ch.created
      return (
        activity < before && (a.max_member_count === undefined || membersOf(db, ch.id).length <= a.max_member_count)
      )
    })
    const { page, next } = cursorPage(
      rows.map((r) => r.id),
      a.limit ?? 100,
      a.cursor,
      1000,
    )
    return { channel_ids: page, next_cursor: next }
  },
)

// restrictAccess: an IDP-group (usergroup) allow-list for a private channel.
const groupsOf = (ch: ChannelRow) => parseJson<{ groups?: string[] }>(ch.prefs, {}).groups ?? []
const setGroups = (db: Db, ch: ChannelRow, groups: string[]) =>
  stmt(db, 'UPDATE slack_channels SET prefs = ? WHERE id = ?').run(
    JSON.stringify({ ...parseJson<object>(ch.prefs, {}), groups }),
    ch.id,
  )
const restrictArgs = z.object({ channel_id: opt(), group_id: opt(), team_id: opt() })
const privateChannel = (db: Db, a: { channel_id?: string; group_id?: string; team_id?: string }) => {
  checkTeam(db, a.team_id)
  const ch = adminChannel(db, a.channel_id)
  if (ch.kind !== 'group') throw new SlackApiError('channel_type_not_supported')
  if (!a.group_id || !stmt(db, 'SELECT 1 FROM slack_usergroups WHERE id = ?').get(a.group_id))
    throw new SlackApiError('group_not_found')
  return ch
}
admin('admin.conversations.restrictAccess.addGroup', restrictArgs, W, (c, a) =>
  c.var.world.tx((db) => {
    const ch = privateChannel(db, a)
    if (groupsOf(ch).includes(a.group_id!)) throw new SlackApiError('group_already_linked_to_channel')
    setGroups(db, ch, [...groupsOf(ch), a.group_id!])
    return {}
  }),
)
admin('admin.conversations.restrictAccess.removeGroup', restrictArgs, W, (c, a) =>
  c.var.world.tx((db) => {
    const ch = privateChannel(db, a)
    if (!groupsOf(ch).includes(a.group_id!)) throw new SlackApiError('group_not_found')
    setGroups(
      db,
      ch,
      groupsOf(ch).filter((g) => g !== a.group_id),
    )
    return {}
  }),
)
admin('admin.conversations.restrictAccess.listGroups', z.object({ channel_id: opt(), team_id: opt() }), R, (c, a) => {
  checkTeam(c.var.world.db, a.team_id)
  const ch = adminChannel(c.var.world.db, a.channel_id)
  return { group_ids: groupsOf(ch) }
})
