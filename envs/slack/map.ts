import { getTableColumns } from 'drizzle-orm'
import { stmt, type Db } from '../core/db.ts'
import { JsonText, keyOf, textMemo } from '../core/json-text.ts'
import { slackMessages } from './schema.ts'
import { findUserById, listUsers } from '../core/users.ts'
import type { WorldUserRow } from '../core/world-tables.ts'
import { DateTime } from 'luxon'
import { nowMs } from '../core/clock.ts'
import { membersOf, parseJson, teamId, userById, type ChannelRow, type MessageRow, type UserRow } from './store/core.ts'

const avatar = (id: string, size: number, photo = '') =>
  `https://avatars.slack-edge.com/2026-01-01/${id}${photo ? `_${photo}` : ''}_${size}.png`

/**
 * A zone's long name and UTC offset (minutes) at an instant. luxon builds an `Intl.DateTimeFormat` for every long
 * name, and a user list renders many users of few zones at one clock reading, so answers are memoised: a pure
 * function of (zone, instant) and this process's IANA data and locale (no world state), bounded.
 */
function zoneAt(tz: string, ms: number): { label: string | null; offset: number } {
  const key = `${tz}\0${ms}`
  let facts = zoneFacts.get(key)
  if (!facts) {
    if (zoneFacts.size >= 256) zoneFacts.clear()
    const zone = DateTime.fromMillis(ms).setZone(tz)
    zoneFacts.set(key, (facts = { label: zone.offsetNameLong, offset: zone.offset }))
  }
  return facts
}
const zoneFacts = new Map<string, { label: string | null; offset: number }>()

/** What every user object of one answer shares: the team, the clock reading, the world users' rows. */
export type UserWireFacts = { team: string; nowMs: number; worldUser: (id: string) => WorldUserRow | undefined }

/** The facts for rendering many users in one answer, each read once (world users in one statement). */
export function userWireFacts(db: Db): UserWireFacts {
  let byId: Map<string, WorldUserRow> | undefined
  const worldUser = (id: string) => (byId ??= new Map(listUsers(db).map((w) => [w.id, w]))).get(id)
  return { team: teamId(db), nowMs: nowMs(db), worldUser }
}

/** A `slack_users` row as Slack's user object (`facts`: see userWireFacts; read here when not given). */
export function userWire(db: Db, u: UserRow, facts?: UserWireFacts): Record<string, unknown> {
  const w = facts ? facts.worldUser(u.world_user_id) : findUserById(db, u.world_user_id)
  const team = facts ? facts.team : teamId(db)
  const tz = w?.timeZone ?? 'America/New_York'
  // The offset in force at the world's time (its clock, not the host's: DST depends on the date).
  const zone = zoneAt(tz, facts ? facts.nowMs : nowMs(db))
  const real = w?.name ?? u.handle
  const profile: Record<string, unknown> = {
    real_name: real,
    display_name: u.display_name,
    avatar_hash: u.photo || u.id.slice(1, 13).toLowerCase(),
    real_name_normalized: real,
    display_name_normalized: u.display_name,
    ...Object.fromEntries([24, 32, 48, 72, 192, 512].map((n) => [`image_${n}`, avatar(u.id, n, u.photo)])),
    ...(u.photo ? { is_custom_image: true, image_original: avatar(u.id, 1024, u.photo) } : {}),
    first_name: w?.givenName ?? '',
    last_name: w?.familyName ?? '',
    team,
    email: w?.email ?? '',
    title: u.title ?? w?.title ?? '',
    phone: u.phone,
    skype: '',
    status_text: u.status_text,
    status_text_canonical: '',
    status_emoji: u.status_emoji,
    status_emoji_display_info: [],
    status_expiration: 0,
  }
  if (u.id === 'USLACKBOT') {
    delete profile.email
    Object.assign(profile, { fields: {}, always_active: true })
  } else if (u.is_bot) {
    delete profile.email
    Object.assign(profile, { api_app_id: `A${u.bot_id!.slice(1)}`, bot_id: u.bot_id, always_active: false })
  }
  return {
    id: u.id,
    team_id: team,
    name: u.handle,
    deleted: u.deleted === 1,
    color: u.id
      .slice(-6)
      .toLowerCase()
      .replace(/[^0-9a-f]/g, 'a'),
    real_name: real,
    tz,
    tz_label: zone.label ?? tz,
    tz_offset: zone.offset * 60,
    profile,
    is_admin: u.role !== 'regular',
    is_owner: u.role === 'owner' || u.role === 'primary_owner',
    is_primary_owner: u.role === 'primary_owner',
    is_restricted: u.guest !== '',
    is_ultra_restricted: u.guest === 'ultra_restricted',
    is_bot: u.is_bot === 1 && u.id !== 'USLACKBOT',
    is_app_user: false,
    updated: u.updated,
    is_email_confirmed: !u.is_bot,
    who_can_share_contact_card: 'EVERYONE',
  }
}

/** A conversation as Slack's conversation object, seen by `viewer`. */
export function channelWire(
  db: Db,
  ch: ChannelRow,
  viewer: string,
  opts: { numMembers?: boolean } = {},
): Record<string, unknown> {
  const team = teamId(db)
  if (ch.kind === 'im') {
    const other = membersOf(db, ch.id).find((m) => m !== viewer) ?? viewer
    return {
      id: ch.id,
      created: ch.created,
      is_archived: false,
      is_im: true,
      is_org_shared: false,
      context_team_id: team,
      updated: ch.updated,
      user: other,
      is_user_deleted: false,
      priority: 0,
    }
  }
  const members = membersOf(db, ch.id)
  const out: Record<string, unknown> = {
    id: ch.id,
    created: ch.created,
    creator: ch.creator,
    is_org_shared: false,
    is_im: false,
    context_team_id: team,
    updated: ch.updated,
    name: ch.name,
    name_normalized: ch.name,
    is_channel: ch.kind === 'channel',
    is_group: ch.kind === 'group',
    is_mpim: ch.kind === 'mpim',
    is_private: ch.kind !== 'channel',
    is_archived: ch.is_archived === 1,
    is_general: ch.is_general === 1,
    is_shared: false,
    is_ext_shared: false,
    unlinked: 0,
    is_pending_ext_shared: false,
    pending_shared: [],
    parent_conversation: null,
    purpose: { value: ch.purpose, creator: ch.purpose_creator, last_set: ch.purpose_last_set },
    topic: { value: ch.topic, creator: ch.topic_creator, last_set: ch.topic_last_set },
    shared_team_ids: [team],
    internal_team_ids: [team],
    pending_connected_team_ids: [],
    is_member: members.includes(viewer),
    properties: {
      tabs: [
        { type: 'bookmarks', label: '', id: 'bookmarks' },
        { type: 'files', label: '', id: 'files' },
      ],
      tabz: [{ type: 'bookmarks' }, { type: 'files' }],
    },
    is_moved: 0,
    previous_names: parseJson<string[]>(ch.previous_names, []),
  }
  if (opts.numMembers) out.num_members = members.length
  return out
}

type ReactionRow = { name: string; user_id: string }
type UnfurlRow = { url: string; attachment: string; app_user: string }

/**
 * What rendering a page of one channel's messages reads besides the rows, in one statement per table instead of one
 * per message: reactions (by `seq`, a world-wide counter) and unfurls (by rowid) grouped by message in the order
 * the per-message reads give, the pinned timestamps, and the team id.
 */
export type PageFacts = {
  team: string
  reactions: Map<string, ReactionRow[]>
  unfurls: Map<string, UnfurlRow[]>
  pinned: Set<string>
}

const NOT_ASCII = /[^\x00-\x7f]/
/** SQLite orders every BLOB after every TEXT value: an upper bound no ts reaches. */
const SQL_ABOVE_ALL_TEXT = Buffer.alloc(1)

export function pageFacts(db: Db, channelId: string, messages: readonly MessageRow[]): PageFacts {
  const byTs = <T extends { ts: string }>(rows: T[]) => {
    const map = new Map<string, T[]>()
    for (const r of rows) {
      const list = map.get(r.ts)
      if (list) list.push(r)
      else map.set(r.ts, [r])
    }
    return map
  }
  if (messages.length === 0) return { team: teamId(db), reactions: new Map(), unfurls: new Map(), pinned: new Set() }
  let low: string | Buffer = ''
  let high: string | Buffer = SQL_ABOVE_ALL_TEXT
  // ASCII ts (every generated one) order alike in JavaScript and in SQLite's byte order; any other reads the channel.
  if (!messages.some((m) => NOT_ASCII.test(m.ts))) {
    low = high = messages[0]!.ts
    for (const { ts } of messages) {
      if (ts < low) low = ts
      if (ts > high) high = ts
    }
  }
  // One range of each table's (channel_id, ts) key, from the page's first to last ts (a list of 100 ts read through
  // json_each cost a key probe per ts and table, mostly for nothing: few messages have reactions, unfurls or pins).
  // Rows of messages in that range but not on the page (thread replies) come too; they are never looked up.
  const IN = 'channel_id = ? AND ts >= ? AND ts <= ?'
  const read = (sql: string) => stmt(db, sql).all(channelId, low, high)
  const reactions = read(`/* page reactions */ SELECT ts, name, user_id FROM slack_reactions WHERE ${IN} ORDER BY seq`)
  const unfurls = read(`/* page unfurls */ SELECT ts, url, attachment, app_user FROM slack_unfurls WHERE ${IN}
    ORDER BY rowid`)
  const pins = read(`/* page pins */ SELECT ts FROM slack_pins WHERE ${IN}`) as { ts: string }[]
  return {
    team: teamId(db),
    reactions: byTs(reactions as (ReactionRow & { ts: string })[]),
    unfurls: byTs(unfurls as (UnfurlRow & { ts: string })[]),
    pinned: new Set(pins.map((r) => r.ts)),
  }
}

/** Reactions on a message, in first-reaction order. */
export function reactionsOf(db: Db, channelId: string, ts: string) {
  const rows = stmt(db, 'SELECT name, user_id FROM slack_reactions WHERE channel_id = ? AND ts = ? ORDER BY seq').all(
    channelId,
    ts,
  ) as ReactionRow[]
  return groupReactions(rows)
}

function groupReactions(rows: readonly ReactionRow[]) {
  const out: { name: string; users: string[]; count: number }[] = []
  for (const r of rows) {
    let e = out.find((x) => x.name === r.name)
    if (!e) out.push((e = { name: r.name, users: [], count: 0 }))
    e.users.push(r.user_id)
    e.count++
  }
  return out
}

/** Default rich_text block Slack derives from plain text. */
const textBlocks = (text: string, ts: string) => [
  {
    type: 'rich_text',
    block_id: ts.replace('.', '').slice(-5),
    elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }],
  },
]

/** A stored message as Slack's message object (thread fields on parents, `parent_user_id` on replies). */
export function messageWire(
  db: Db,
  m: MessageRow,
  opts: { viewer?: string; withFiles?: (ids: string[]) => unknown[]; facts?: PageFacts; metadata?: boolean } = {},
) {
  const facts = opts.facts
  const out: Record<string, unknown> = { user: m.user_id, type: 'message', ts: m.ts }
  if (m.subtype) out.subtype = m.subtype
  if (m.bot_id) out.bot_id = m.bot_id
  out.text = m.text
  if (m.meta) Object.assign(out, parseJson<Record<string, unknown>>(m.meta, {}))
  if (m.username) out.username = m.username
  const team = facts ? facts.team : teamId(db)
  out.team = team
  if (m.bot_id) {
    const bot = userById(db, m.user_id)
    out.app_id = `A${m.bot_id.slice(1)}`
    out.bot_profile = {
      id: m.bot_id,
      app_id: `A${m.bot_id.slice(1)}`,
      user_id: m.user_id,
      name: bot?.display_name || bot?.handle || 'bot',
      icons: {
        image_36: 'https://a.slack-edge.com/80588/img/plugins/app/bot_36.png',
        image_48: 'https://a.slack-edge.com/80588/img/plugins/app/bot_48.png',
        image_72: 'https://a.slack-edge.com/80588/img/plugins/app/service_72.png',
      },
      deleted: false,
      updated: bot?.updated ?? 0,
      team_id: team,
    }
  }
  if (m.thread_ts) {
    out.thread_ts = m.thread_ts
    if (m.thread_ts === m.ts) {
      const replies = stmt(
        db,
        'SELECT user_id, ts FROM slack_messages WHERE channel_id = ? AND thread_ts = ? AND ts != ? ORDER BY ts',
      ).all(m.channel_id, m.ts, m.ts) as { user_id: string; ts: string }[]
      const users = [...new Set(replies.map((r) => r.user_id))]
      Object.assign(out, {
        reply_count: replies.length,
        reply_users_count: users.length,
        latest_reply: replies.at(-1)?.ts ?? m.ts,
        reply_users: users,
        is_locked: false,
        subscribed: opts.viewer ? opts.viewer === m.user_id || users.includes(opts.viewer) : false,
      })
      if (opts.viewer && (out.subscribed as boolean)) out.last_read = replies.at(-1)?.ts ?? m.ts
    } else {
      const parent = stmt(db, 'SELECT user_id FROM slack_messages WHERE channel_id = ? AND ts = ?').get(
        m.channel_id,
        m.thread_ts,
      ) as { user_id: string } | undefined
      out.parent_user_id = parent?.user_id ?? m.user_id
      if (m.reply_broadcast) {
        out.subtype = 'thread_broadcast'
        // A broadcast reply carries its thread's parent, with the thread's counts, as `root` (Slack's
        // thread_broadcast message); a parent since deleted leaves none.
        const root = stmt(db, 'SELECT * FROM slack_messages WHERE channel_id = ? AND ts = ?').get(
          m.channel_id,
          m.thread_ts,
        ) as MessageRow | undefined
        if (root && root.thread_ts === root.ts) out.root = messageWire(db, root, { viewer: opts.viewer })
      }
    }
  }
  if (m.edited_ts) out.edited = { user: m.edited_user, ts: m.edited_ts }
  const blocks = parseJson<unknown[] | null>(m.blocks, null)
  if (blocks) out.blocks = blocks
  else if (!m.subtype || m.subtype === 'thread_broadcast') out.blocks = textBlocks(m.text, m.ts)
  const own = parseJson<unknown[] | null>(m.attachments, null)
  const unfurls = unfurlsOf(db, m, facts?.unfurls.get(m.ts) ?? (facts ? [] : undefined))
  if (own || unfurls.length > 0) out.attachments = [...(own ?? []), ...unfurls]
  const files = parseJson<string[] | null>(m.files, null)
  if (files && files.length > 0) {
    out.files = opts.withFiles ? opts.withFiles(files) : files.map((id) => ({ id }))
    out.upload = true
    out.display_as_bot = false
  }
  const reactions = facts ? groupReactions(facts.reactions.get(m.ts) ?? []) : reactionsOf(db, m.channel_id, m.ts)
  if (reactions.length > 0) out.reactions = reactions
  const pinned = facts
    ? facts.pinned.has(m.ts)
    : stmt(db, 'SELECT 1 FROM slack_pins WHERE channel_id = ? AND ts = ?').get(m.channel_id, m.ts)
  if (pinned) out.pinned_to = [m.channel_id]
  // Message metadata: in a post's own answer, and in history and replies asked with `include_all_metadata`.
  if (opts.metadata && m.metadata) out.metadata = parseJson<unknown>(m.metadata, null)
  return out
}

/** The columns of `slack_messages`, in table order (what `SELECT *` names). */
export const MESSAGE_COLUMNS = Object.values(getTableColumns(slackMessages)).map((c) => c.name) as (keyof MessageRow)[]

/**
 * Renders a page of one channel's messages for `viewer`. A message whose object depends on nothing but its row and
 * the page facts about it (no thread, bot profile, files or unfurls, which read further rows) comes back as a
 * `JsonText` (slot: viewer, channel, ts; compared: every column, the team, its reactions in order, pinned or not):
 * a page asked again is written from the texts kept for this world connection (docs/decisions/0300). A row kept
 * frozen by history's row keeper (0329) never changes, so its `JsonText` is handed out again while the viewer, the
 * team, the pin and the reactions are the same: the values it holds are then exactly the ones it was made from.
 */
export function messagePage(
  db: Db,
  page: readonly MessageRow[],
  facts: PageFacts,
  viewer: string,
  withFiles: (ids: string[]) => unknown[],
  metadata = false,
): unknown[] {
  const memo = textMemo(db, 'slack#message')
  const opts = { viewer, withFiles, facts, metadata }
  // What a JsonText's rendering reads: no files (those messages are rendered directly), so no request's closure.
  const plainOpts = { viewer, facts }
  const byRow = textsOfFrozenRows(db)
  return page.map((m) => {
    const unfurls = facts.unfurls.get(m.ts)
    const files = m.files && m.files !== '[]' && m.files !== 'null'
    // Shown metadata is rendered directly: the kept texts are made without it.
    if (m.thread_ts || m.bot_id || files || unfurls?.length || (metadata && m.metadata)) {
      return messageWire(db, m, opts)
    }
    const pinned = facts.pinned.has(m.ts)
    const reactions = facts.reactions.get(m.ts) ?? NO_REACTIONS
    const frozen = Object.isFrozen(m)
    if (frozen) {
      const last = byRow.get(m)
      if (
        last &&
        last.viewer === viewer &&
        last.team === facts.team &&
        last.pinned === pinned &&
        sameReactions(last.reactions, reactions)
      )
        return last.text
    }
    const values: unknown[] = [facts.team, pinned]
    for (const k of MESSAGE_COLUMNS) values.push(m[k])
    for (const r of reactions) values.push(r.name, r.user_id)
    const text = new JsonText(keyOf([viewer, m.channel_id, m.ts]), values, () => messageWire(db, m, plainOpts), memo)
    if (frozen) byRow.set(m, { viewer, team: facts.team, pinned, reactions, text })
    return text
  })
}

const NO_REACTIONS: readonly ReactionRow[] = []

/** The last `JsonText` made per frozen row, with what it was made for; per world connection, dies with its rows. */
type RowText = { viewer: string; team: string; pinned: boolean; reactions: readonly ReactionRow[]; text: JsonText }
const rowTexts = new WeakMap<object, WeakMap<MessageRow, RowText>>()

function textsOfFrozenRows(db: Db): WeakMap<MessageRow, RowText> {
  let texts = rowTexts.get(db.$client)
  if (!texts) rowTexts.set(db.$client, (texts = new WeakMap()))
  return texts
}

function sameReactions(a: readonly ReactionRow[], b: readonly ReactionRow[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i]!.name !== b[i]!.name || a[i]!.user_id !== b[i]!.user_id) return false
  return true
}

/** App unfurls of links in a message (chat.unfurl), shown as attachments after the message's own. */
function unfurlsOf(db: Db, m: MessageRow, read?: readonly UnfurlRow[]) {
  const rows =
    read ??
    (stmt(db, 'SELECT url, attachment, app_user FROM slack_unfurls WHERE channel_id = ? AND ts = ? ORDER BY rowid').all(
      m.channel_id,
      m.ts,
    ) as UnfurlRow[])
  return rows.map((r, i) => {
    const app = userById(db, r.app_user)
    return {
      ...parseJson<Record<string, unknown>>(r.attachment, {}),
      id: i + 1,
      from_url: r.url,
      original_url: r.url,
      app_unfurl_url: r.url,
      is_app_unfurl: true,
      ...(app?.bot_id ? { app_id: `A${app.bot_id.slice(1)}` } : {}),
    }
  })
}
