import { z } from 'zod'
import { stmt, type Db } from '../core/db.ts'
import { setMeta, setClock, nowMs } from '../core/clock.ts'
import { nextCounter, slackId } from '../core/ids.ts'
import { issueTokenKey } from '../core/tokens.ts'
import { worldUsers } from '../core/world-tables.ts'
import type { SeedContext } from '../core/service.ts'
import { SeedTime } from '../core/seed-types.ts'
import type { World } from '../core/world.ts'
import { addMember, channelById, userByWorldId } from './store/core.ts'
import { openIm, openMpim, writeMessage } from './store/messages.ts'
import { typeOf } from './routes/files.ts'
import { RateLimitConfig, setRateLimits } from './ratelimit.ts'

const Ref = z.string().min(1)

/** Seed of the `slack:` key. Users are world user ids or emails; times ISO or relative ("-2d"). */
export const SlackSeed = z
  .object({
    teamId: z
      .string()
      .regex(/^T[A-Z0-9]+$/)
      .optional(),
    bots: z
      .array(
        z.object({ id: z.string().regex(/^[a-z0-9-]+$/), name: z.string(), scopes: z.array(z.string()).optional() }),
      )
      .default([]),
    channels: z
      .array(
        z.object({
          id: z
            .string()
            .regex(/^[CG][A-Z0-9]+$/)
            .optional(),
          name: z.string().regex(/^[a-z0-9_-]{1,80}$/),
          private: z.boolean().default(false),
          general: z.boolean().default(false),
          topic: z.string().default(''),
          purpose: z.string().default(''),
          creator: Ref.optional(),
          members: z.union([z.literal('all'), z.array(Ref)]).default('all'),
          archived: z.boolean().default(false),
          created: SeedTime.optional(),
        }),
      )
      .default([]),
    /**
     * `channel` is a channel name, `dm:alice,bob` or `mpim:alice,bob,carol`. `thread` names another message's `key`.
     */
    messages: z
      .array(
        z.object({
          key: z.string().optional(),
          channel: z.string(),
          user: Ref,
          text: z.string(),
          at: SeedTime,
          thread: z.string().optional(),
          broadcast: z.boolean().optional(),
          blocks: z.array(z.record(z.string(), z.unknown())).optional(),
          reactions: z.record(z.string(), z.array(Ref)).optional(),
          pinned: z.boolean().optional(),
          /** Text files the message shares (uploaded by its author into its conversation). */
          files: z
            .array(z.object({ name: z.string().min(1), title: z.string().optional(), text: z.string() }).strict())
            .optional(),
        }),
      )
      .default([]),
    reminders: z.array(z.object({ user: Ref, text: z.string(), at: SeedTime })).default([]),
    usergroups: z
      .array(
        z.object({ handle: z.string(), name: z.string(), description: z.string().default(''), users: z.array(Ref) }),
      )
      .default([]),
    /** Custom emoji: name → image URL or `alias:<name>` (default: a small set). */
    emoji: z.record(z.string().regex(/^[a-z0-9_+'-]{1,100}$/), z.string()).optional(),
    /** Pending invite requests from members, for admin.inviteRequests.*. */
    inviteRequests: z
      .array(
        z.object({
          email: z.string().email(),
          requester: Ref,
          message: z.string().default(''),
          channels: z.array(z.string()).default([]),
        }),
      )
      .default([]),
    /** Members' pending requests to install an app: a seeded bot's id or the name of an app not installed yet. */
    appRequests: z
      .array(
        z.object({
          app: z.string().min(1),
          requester: Ref,
          message: z.string().default(''),
          scopes: z.array(z.string()).default([]),
        }),
      )
      .default([]),
    /** Extra scopes for a user's token (e.g. to give a non-admin an admin scope). */
    userScopes: z.record(z.string(), z.array(z.string())).default({}),
    /** Opt-in rate limits (HTTP 429 + Retry-After): `{}` for Slack's tiers, or `{tiers, methods}` calls per minute. */
    rateLimits: RateLimitConfig.strict().optional(),
  })
  .strict()
  .default({
    bots: [],
    channels: [],
    messages: [],
    reminders: [],
    usergroups: [],
    inviteRequests: [],
    appRequests: [],
    userScopes: {},
  })
export type SlackSeed = z.infer<typeof SlackSeed>

/** A text file a seeded message shares: uploaded by its author, shared into the message's conversation. */
type SeedFile = { name: string; title?: string; text: string }
function seedFile(db: Db, userId: string, channelId: string, f: SeedFile, created: number) {
  const id = slackId(db, 'F')
  const [filetype, mimetype] = typeOf(f.name)
  const data = Buffer.from(f.text, 'utf8')
  const insert = stmt(
    db,
    `INSERT INTO slack_files
    (id, user_id, name, title, mimetype, filetype, size, data, created, pending, channels)
    VALUES (?,?,?,?,?,?,?,?,?,0,?)`,
  )
  const channels = JSON.stringify([channelId])
  insert.run(id, userId, f.name, f.title ?? f.name, mimetype, filetype, data.length, data, created, channels)
  return id
}

/** Slack handle from an e-mail's local part (`alice.ng@…` → `alice.ng`). */
const handleOf = (email: string) =>
  email
    .split('@')[0]!
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '')

/** Writes the Slack slice: members for every world user, bots, channels, messages, reminders. */
export function seedSlack(world: World, seed: SlackSeed, ctx: SeedContext): void {
  world.tx((db) => {
    const team = seed.teamId ?? `T${slackId(db, 'T').slice(1)}`
    setMeta(db, 'slack_team_id', team)
    if (seed.rateLimits) setRateLimits(db, seed.rateLimits)
    const created = Math.floor(ctx.nowMs / 1000) - 400 * 86400
    stmt(
      db,
      "INSERT INTO slack_users (id, world_user_id, handle, is_bot, bot_id, display_name, updated) VALUES ('USLACKBOT', '_slackbot', 'slackbot', 1, 'B01', 'Slackbot', ?)",
    ).run(created)
    for (const u of ctx.users) {
      const id = slackId(db, 'U')
      stmt(
        db,
        'INSERT INTO slack_users (id, world_user_id, handle, display_name, updated, role) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(
        id,
        u.id,
        handleOf(u.email),
        u.givenName || u.name.split(' ')[0] || '',
        created,
        u.isAdmin ? 'owner' : 'regular',
      )
      grantScopes(db, u.id, [...USER_APP_SCOPES, ...(u.isAdmin ? ADMIN_SCOPES : [])])
      const last = Math.floor(ctx.nowMs / 1000) - 3600
      stmt(
        db,
        "INSERT INTO slack_sessions (id, user_id, client, user_agent, ip, created, last_active) VALUES (?, ?, 'web', ?, ?, ?, ?)",
      ).run(
        nextCounter(db, 'slack.session'),
        id,
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
        `198.51.100.${10 + ctx.users.indexOf(u)}`,
        last - 7 * 86400,
        last,
      )
    }
    for (const [ref, scopes] of Object.entries(seed.userScopes))
      grantScopes(db, ctx.user(ref, `slack.userScopes.${ref}`).id, scopes)
    const emoji = seed.emoji ?? DEFAULT_EMOJI(team)
    for (const [name, value] of Object.entries(emoji)) {
      const alias = value.startsWith('alias:') ? value.slice(6) : null
      stmt(db, 'INSERT INTO slack_emoji (name, url, alias_for, user_id, created) VALUES (?, ?, ?, ?, ?)').run(
        name,
        alias ? '' : value,
        alias,
        'USLACKBOT',
        created,
      )
    }
    for (const b of seed.bots) {
      const wid = `bot-${b.id}`
      db.insert(worldUsers)
        .values({
          id: wid,
          email: `${b.id}@bots.${ctx.domain}`,
          name: b.name,
          givenName: b.name,
          familyName: '',
          timeZone: 'UTC',
          tokenKey: wid,
        })
        .run()
      stmt(
        db,
        'INSERT INTO slack_users (id, world_user_id, handle, is_bot, bot_id, display_name, updated) VALUES (?, ?, ?, 1, ?, ?, ?)',
      ).run(slackId(db, 'U'), wid, b.id, slackId(db, 'B'), b.name, created)
      issueTokenKey(db, wid, 'slack_bot', b.scopes ?? BOT_SCOPES)
    }
    // No Slack user is added from here on: a reference resolves to one id for the rest of the seed.
    const sids = new Map<string, string>()
    const sid = (ref: string, path: string) => {
      let id = sids.get(ref)
      if (id === undefined) {
        id = userByWorldId(db, `bot-${ref}`)?.id ?? userByWorldId(db, ctx.user(ref, path).id)!.id
        sids.set(ref, id)
      }
      return id
    }
    const botIds = new Map<string, string | undefined>()
    const botIdOf = (user: string) => {
      if (!botIds.has(user)) {
        const row = stmt(db, 'SELECT bot_id FROM slack_users WHERE id = ? AND is_bot = 1').get(user) as
          { bot_id: string } | undefined
        botIds.set(user, row?.bot_id)
      }
      return botIds.get(user)
    }
    const everyone = ctx.users.map((u) => userByWorldId(db, u.id)!.id)
    const byName = new Map<string, string>()
    seed.channels.forEach((ch, i) => {
      if (byName.has(ch.name)) throw new Error(`slack.channels[${i}].name: a channel named "${ch.name}" comes earlier`)
      const id = ch.id ?? slackId(db, 'C')
      const creator = ch.creator ? sid(ch.creator, `slack.channels[${i}].creator`) : everyone[0]!
      const at = Math.floor((ch.created ? ctx.time(ch.created) : ctx.nowMs - 300 * 86400_000) / 1000)
      stmt(
        db,
        `INSERT INTO slack_channels (id, name, kind, creator, created, updated, is_general, is_archived, topic, topic_creator, topic_last_set, purpose, purpose_creator, purpose_last_set)
        VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
      ).run(
        id,
        ch.name,
        ch.private ? 'group' : 'channel',
        creator,
        at,
        at * 1000,
        ch.general ? 1 : 0,
        ch.archived ? 1 : 0,
        ch.topic,
        ch.topic ? creator : '',
        ch.topic ? at : 0,
        ch.purpose,
        ch.purpose ? creator : '',
        ch.purpose ? at : 0,
      )
      const members =
        ch.members === 'all' ? everyone : ch.members.map((m, j) => sid(m, `slack.channels[${i}].members[${j}]`))
      for (const m of [creator, ...members]) addMember(db, id, m)
      byName.set(ch.name, id)
    })
    const keys = new Map<string, { channel: string; ts: string }>()
    // A conversation, once found or opened, stays the one its reference names (nothing here deletes or renames).
    const conversations = new Map<string, string>()
    const clock = nowMs(db)
    const sorted = seed.messages.map((m, i) => ({ m, i, at: ctx.time(m.at) })).sort((x, y) => x.at - y.at || x.i - y.i)
    for (const { m, i, at } of sorted) {
      const path = `slack.messages[${i}]`
      const user = sid(m.user, `${path}.user`)
      let channel = conversations.get(m.channel)
      if (channel === undefined) {
        channel = conversationOf(db, m.channel, byName, (r, p) => sid(r, p), path)
        conversations.set(m.channel, channel)
      }
      const parent = m.thread ? keys.get(m.thread) : undefined
      if (m.thread && !parent) throw new Error(`${path}.thread: no earlier message with key "${m.thread}"`)
      setClock(db, at)
      const botId = botIdOf(user)
      const files = (m.files ?? []).map((f) => seedFile(db, user, channel, f, Math.floor(at / 1000)))
      const row = {
        ts: writeMessage(db, {
          channelId: channel,
          userId: user,
          botId,
          text: m.text,
          blocks: m.blocks,
          threadTs: parent?.ts,
          replyBroadcast: m.broadcast,
          files,
        }),
      }
      if (m.key) keys.set(m.key, { channel, ts: row.ts })
      for (const [name, users] of Object.entries(m.reactions ?? {})) {
        users.forEach((r, j) =>
          stmt(db, 'INSERT OR IGNORE INTO slack_reactions (channel_id, ts, name, user_id, seq) VALUES (?,?,?,?,?)').run(
            channel,
            row.ts,
            name,
            sid(r, `${path}.reactions.${name}[${j}]`),
            nextCounter(db, 'slack.reaction'),
          ),
        )
      }
      if (m.pinned)
        stmt(db, 'INSERT OR IGNORE INTO slack_pins (channel_id, ts, created_by, created) VALUES (?,?,?,?)').run(
          channel,
          row.ts,
          user,
          Math.floor(at / 1000),
        )
    }
    setClock(db, clock)
    seed.reminders.forEach((r, i) => {
      const user = sid(r.user, `slack.reminders[${i}].user`)
      stmt(db, 'INSERT INTO slack_reminders (id, creator, user_id, text, time) VALUES (?,?,?,?,?)').run(
        slackId(db, 'Rm'),
        user,
        user,
        r.text,
        Math.floor(ctx.time(r.at) / 1000),
      )
    })
    seed.inviteRequests.forEach((r, i) => {
      stmt(
        db,
        'INSERT INTO slack_invites (id, kind, email, channels, message, requester, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(
        slackId(db, 'Ir'),
        'request',
        r.email,
        JSON.stringify(r.channels.map((c) => byName.get(c) ?? c)),
        r.message,
        sid(r.requester, `slack.inviteRequests[${i}].requester`),
        Math.floor(ctx.nowMs / 1000) - 86400,
      )
    })
    seed.appRequests.forEach((r, i) => {
      const bot = userByWorldId(db, `bot-${r.app}`)
      const appId = bot?.bot_id ? `A${bot.bot_id.slice(1)}` : slackId(db, 'A')
      stmt(
        db,
        'INSERT INTO slack_app_requests (id, app_id, app_name, requester, message, scopes, created) VALUES (?,?,?,?,?,?,?)',
      ).run(
        slackId(db, 'Ar'),
        appId,
        bot?.display_name ?? r.app,
        sid(r.requester, `slack.appRequests[${i}].requester`),
        r.message,
        JSON.stringify(r.scopes),
        Math.floor(ctx.nowMs / 1000) - 3600,
      )
    })
    seed.usergroups.forEach((g, i) => {
      const users = g.users.map((r, j) => sid(r, `slack.usergroups[${i}].users[${j}]`))
      const now = Math.floor(ctx.nowMs / 1000)
      stmt(
        db,
        'INSERT INTO slack_usergroups (id, name, handle, description, users, created_by, created, updated) VALUES (?,?,?,?,?,?,?,?)',
      ).run(slackId(db, 'S'), g.name, g.handle, g.description, JSON.stringify(users), everyone[0], now, now)
    })
  })
}

/** Channel name, `dm:a,b` or `mpim:a,b,c` → conversation id (IMs and MPIMs created on demand). */
function conversationOf(
  db: Db,
  ref: string,
  byName: Map<string, string>,
  sid: (r: string, p: string) => string,
  path: string,
): string {
  const m = /^(dm|mpim):(.+)$/.exec(ref)
  if (m) {
    const ids = m[2]!.split(',').map((r, j) => sid(r.trim(), `${path}.channel[${j}]`))
    return m[1] === 'dm' ? openIm(db, ids[0]!, ids[1] ?? ids[0]!).id : openMpim(db, ids).id
  }
  const id = byName.get(ref) ?? (channelById(db, ref) ? ref : undefined)
  if (!id) throw new Error(`${path}.channel: no channel "${ref}"`)
  return id
}

/** Adds scopes to a world user's Slack user token (the core issues the base set). */
function grantScopes(db: Db, worldUserId: string, scopes: readonly string[]) {
  const row = stmt(db, "SELECT key, scopes FROM world_tokens WHERE user_id = ? AND kind = 'slack_user'").get(
    worldUserId,
  ) as { key: string; scopes: string } | undefined
  if (!row) return
  const merged = [...new Set([...row.scopes.split(',').filter(Boolean), ...scopes])]
  stmt(db, 'UPDATE world_tokens SET scopes = ? WHERE key = ?').run(merged.join(','), row.key)
}

/** Custom emoji of a world whose seed names none. */
const DEFAULT_EMOJI = (team: string): Record<string, string> => ({
  shipit: `https://emoji.slack-edge.com/${team}/shipit/0f8d7a2c.png`,
  partyparrot: `https://emoji.slack-edge.com/${team}/partyparrot/3c2e55b6.gif`,
  'this-is-fine': `https://emoji.slack-edge.com/${team}/this-is-fine/91b2e0a1.png`,
  squirrel: 'alias:shipit',
})

/** Scopes every member's user token gets on top of the core set (canvases, lists, calls, Sign in with Slack). */
export const USER_APP_SCOPES = [
  'canvases:read',
  'canvases:write',
  'lists:read',
  'lists:write',
  'calls:read',
  'calls:write',
  'openid',
  'email',
  'profile',
]

/** Scopes of Workspace Admins' and Owners' user tokens (admin.* methods). */
export const ADMIN_SCOPES = [
  'admin',
  'admin.conversations:read',
  'admin.conversations:write',
  'admin.users:read',
  'admin.users:write',
  'admin.teams:read',
  'admin.teams:write',
  'admin.usergroups:read',
  'admin.usergroups:write',
  'admin.invites:read',
  'admin.invites:write',
  'admin.roles:read',
  'admin.roles:write',
  'team.billing:read',
  'team.preferences:read',
  'admin.apps:read',
  'admin.apps:write',
  'admin.barriers:read',
  'admin.barriers:write',
]

/** Scopes of a seeded bot token unless the seed lists its own. */
export const BOT_SCOPES = [
  'canvases:read',
  'canvases:write',
  'lists:read',
  'lists:write',
  'calls:read',
  'calls:write',
  'remote_files:read',
  'remote_files:write',
  'remote_files:share',
  'links:write',
  'assistant:write',
  'team.preferences:read',
  'channels:read',
  'channels:history',
  'channels:join',
  'channels:manage',
  'groups:read',
  'groups:history',
  'groups:write',
  'im:read',
  'im:write',
  'im:history',
  'mpim:read',
  'mpim:write',
  'mpim:history',
  'chat:write',
  'users:read',
  'users:read.email',
  'users.profile:read',
  'reactions:read',
  'reactions:write',
  'pins:read',
  'pins:write',
  'bookmarks:read',
  'bookmarks:write',
  'files:read',
  'files:write',
  'team:read',
  'emoji:read',
  'usergroups:read',
  'reminders:read',
  'dnd:read',
]
