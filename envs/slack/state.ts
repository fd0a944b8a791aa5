import { getTableName } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Json, ServiceState } from '../core/service.ts'
import type { World } from '../core/world.ts'
import { parseJson, type ChannelRow, type MessageRow, type UserRow } from './store/core.ts'
import { entityMemo, keptValue } from '../core/dump-memo.ts'
import {
  columnNames,
  keptGroups,
  readRows,
  readTable,
  tableRead,
  type Rows,
  type TableRead,
} from '../core/dump-rows.ts'
import { noteChangedIds } from '../core/diff.ts'
import {
  slackBookmarks,
  slackChannels,
  slackMessages,
  slackReminders,
  slackScheduled,
  slackStars,
  slackUsergroups,
  slackUsers,
} from './schema.ts'
import { dumpMore } from './state-more.ts'

/**
 * Slack state for oracles. Shape (version 1):
 * ```
 * entities: {
 *   users:     { <U id>: { id, worldUserId, handle, isBot, botId, displayName, statusText, statusEmoji, phone, title?,
 *                           presence } },
 *   channels:  { <C/G/D id>: { id, name, type: 'public'|'private'|'im'|'mpim', isArchived, isGeneral, topic, purpose,
 *                              creator, members: [U id…] } },
 *   messages:  { "<channel id>/<ts>": { channel, channelName, ts, user, botId, subtype, text, threadTs, isReply,
 *                              replyBroadcast, edited, blocks, attachments, files: [F id…], reactions: {name: [U id…]},
 *                              pinned, pinnedItem (a pinned_item notice only: "<channel id>/<ts>") } },
 *   scheduled: { <Q id>: { id, channel, user, text, blocks, attachments, threadTs, postAt (epoch s),
 *                          status: 'pending'|'posted'|'deleted', postedTs, metadata and replyBroadcast (only where
 *                          set) } },
 *   files:     { <F id>: { id, name, title, mimetype, size, user, channels: [id…], publicShared, deleted, pending,
 *                          body (the bytes as UTF-8 text, first MiB; null without bytes) } },
 *   reminders: { <Rm id>: { id, user, creator, text, time (epoch s; a recurring one's next), completeTs, fired,
 *     recurrence? (Slack's rule) } },
 *   stars:     { "<user>/<channel>/<ts>/<file>": { user, channel, ts, file } },
 *   bookmarks: { <Bk id>: { id, channel, title, link, emoji, user } },
 *   usergroups:{ <S id>: { id, handle, name, description, users: [U id…], disabled, channels: [C id…] (defaults) } },
 *   team:      { settings: { name, description, discoverability, icon, defaultChannels } },
 *   emoji:     { <name>: <url> | "alias:<name>" },
 *   invites:   { <id>: { id, kind: 'invite'|'request', email, realName, channels, message, guest, requester, status,
 *                        reviewer } },
 *   roleAssignments: { "<role>/<entity>/<user>": { roleId, entityId, userId } },
 *   sessions:  { <n>: { id, user, client, active } },
 *   canvases:  { <F id>: { id, title, owner, channel, markdown, sections: [{id, kind, markdown}],
 *                          access: {<U/C id>: level} } },
 *   lists:     { <F id>: { id, name, description, todoMode, owner, columns, items: [{id, parentId, fields, createdBy}],
 *                          access } },
 *   calls:     { <R id>: { id, externalUniqueId, title, joinUrl, createdBy, dateStart, dateEnd, participants,
 *                          allParticipants } },
 *   views:     { <V id>: { id, type: 'modal'|'home'|'dialog', user, app, externalId, rootViewId, previousViewId, hash,
 *                          view } },
 *   remoteFiles: { <F id>: { id, externalId, title, filetype, externalUrl, channels, app } },
 *   assistantThreads: { "<channel>/<thread_ts>": { channel, threadTs, status, title, prompts } },
 *   unfurls:   { "<channel>/<ts>/<url>": { channel, ts, url, attachment } },
 *   apps:      { <A id>: { id, creator, botUser, manifest } },
 *   appRequests: { <Ar id>: { id, appId, appName, requester, message, scopes,
 *                             status: 'pending'|'approved'|'restricted'|'cancelled' } },
 *   appResolutions: { <A id>: { appId, appName, status: 'approved'|'restricted', resolvedBy } },
 *   barriers:  { <Eb id>: { id, primaryUsergroup, barrieredFrom: [S id…], subjects } },
 *   authPolicy: { "<policy>/<U id>": { policy, entityId, entityType } },
 *   listExports: { <job id>: { jobId, listId, user } },
 * }
 * Users also carry role ('regular'|'admin'|'owner'|'primary_owner'), deleted, guest, expiration, photo;
 * channels carry prefs (admin posting rules) and retentionDays.
 * ```
 * User ids are Slack ids; `users[id].worldUserId` maps them to world users.
 */
export function dumpSlack(world: World): ServiceState {
  const db = world.db
  // Every read is kept on a held world (envs/core/dump-rows.ts); a collection built from the very same rows as
  // before is the same object again (keptValue), entities the same while their inputs are (entityMemo).
  const userRows = readTable(world, USERS) as readonly UserRow[]
  const users = keptValue(db, 'slack.users', [userRows], () => {
    const memo = entityMemo(db, 'slack.users')
    const out: Record<string, Json> = {}
    for (const u of userRows) {
      out[u.id] = memo.entity(u.id, [u], () => ({
        id: u.id,
        worldUserId: u.world_user_id,
        handle: u.handle,
        isBot: u.is_bot === 1,
        botId: u.bot_id,
        displayName: u.display_name,
        statusText: u.status_text,
        statusEmoji: u.status_emoji,
        phone: u.phone,
        // Only a title set in Slack (users.profile.set): the world user's own is the directory's.
        ...(u.title !== null && u.title !== undefined ? { title: u.title } : {}),
        presence: u.presence,
        role: u.role,
        deleted: u.deleted === 1,
        guest: u.guest || null,
        expiration: u.expiration,
        photo: u.photo || null,
      }))
    }
    return out
  })
  // Members, pins and reactions each in one read (not one per channel or message); a channel or message none of
  // whose member or reaction rows was written keeps the very list (envs/core/dump-rows.ts keptGroups).
  const members = keptGroups(
    db,
    'slack.members',
    readRows(world, MEMBERS),
    (r) => r[0] as string,
    (list: string[], r) => list.push(r[1] as string),
  )
  const channelRead = readRows(world, CHANNELS) as Rows<ChannelRow>
  const channelRows = channelRead.rows
  const names = keptValue(
    db,
    'slack.channelNames',
    [channelRows],
    () => new Map(channelRows.map((ch) => [ch.id, ch.name])),
  )
  const channels = keptValue(db, 'slack.channels', [channelRows, members], () => {
    const memo = entityMemo(db, 'slack.channels')
    const out: Record<string, Json> = {}
    for (const ch of channelRows) {
      const type = { channel: 'public', group: 'private', im: 'im', mpim: 'mpim' }[ch.kind]
      const ids = members.get(ch.id) ?? NONE
      out[ch.id] = memo.entity(
        ch.id,
        [ch, ids],
        () =>
          ({
            id: ch.id,
            name: ch.name,
            type,
            isArchived: ch.is_archived === 1,
            isGeneral: ch.is_general === 1,
            topic: ch.topic,
            purpose: ch.purpose,
            creator: ch.creator,
            members: [...ids],
            prefs: parseJson<Json>(ch.prefs, {}),
            retentionDays: ch.retention,
          }) as Json,
      )
    }
    return out
  })
  const pinRead = readRows(world, PINS) as Rows<readonly [string, string]>
  const pinRows = pinRead.rows
  const pins = keptValue(db, 'slack.pins', [pinRows], () => new Set(pinRows.map(([ch, ts]) => `${ch}/${ts}`)))
  // Reactions of every message, each message's in `seq` order (as reactionsOf reads them): [name, user]…
  const reactionRead = readRows(world, REACTIONS)
  const reactions = keptGroups(
    db,
    'slack.reactions',
    reactionRead,
    (r) => r.key,
    (list: string[], r) => list.push(r.name, r.user),
  )
  const messageRead = readRows(world, MESSAGES)
  const messageRows = messageRead.rows
  const messages = keptValue(db, 'slack.messages', [messageRows, names, pins, reactions], () => {
    const memo = entityMemo(db, 'slack.messages')
    const out: Record<string, Json> = {}
    const reads: MessageReads = [messageRead, channelRead, pinRead, reactionRead]
    const base = messagesBase(reads)
    for (const { key, row: m } of messageRows) {
      // A message none of whose inputs' rows was written: the base's entity (equal to what the memo would give).
      const kept = base && !base.touched.has(key) && !base.channels.has(m.channel_id) ? base.collection[key] : undefined
      if (kept !== undefined) {
        out[key] = kept
        continue
      }
      const channelName = names.get(m.channel_id) ?? null
      const pinned = pins.has(key)
      const reacted = reactions.get(key) ?? NONE
      out[key] = memo.entity(key, [m, channelName, pinned, reacted], () => ({
        channel: m.channel_id,
        channelName,
        ts: m.ts,
        user: m.user_id,
        botId: m.bot_id,
        subtype: m.subtype,
        text: m.text,
        threadTs: m.thread_ts,
        isReply: Boolean(m.thread_ts && m.thread_ts !== m.ts),
        replyBroadcast: m.reply_broadcast === 1,
        edited: Boolean(m.edited_ts),
        blocks: parseJson<Json>(m.blocks, null),
        attachments: parseJson<Json>(m.attachments, null),
        files: parseJson<string[]>(m.files, []),
        reactions: reactionsJson(reacted),
        pinned,
        // Only where set (0439): a post's message metadata and a bot's shown name, text its readers' apps get.
        ...(m.metadata ? { metadata: parseJson<Json>(m.metadata, null) } : {}),
        ...(m.username ? { username: m.username } : {}),
        // A pin's notice (0480): which message it says was pinned, "<channel id>/<ts>".
        ...(m.subtype === 'pinned_item' ? { pinnedItem: pinnedItemOf(m.meta) } : {}),
      }))
    }
    if (base) noteChangedIds(out, base.collection, noted(base, messageRows))
    else keepMessagesBase(reads, out)
    return out
  })
  const j = (o: Record<string, unknown>) => o as Json
  /** One entity per row, the collection the same object while the rows are. */
  const each = (name: string, read: TableRead<Row>, build: (r: Row, out: Record<string, Json>) => void) => {
    const rows = readTable(world, read)
    return keptValue(db, `slack.${name}`, [rows], () => {
      const out: Record<string, Json> = {}
      for (const r of rows) build(r, out)
      return out
    })
  }
  const scheduled = each('scheduled', SCHEDULED, (s, out) => {
    out[String(s.id)] = j({
      id: s.id,
      channel: s.channel_id,
      user: s.user_id,
      text: s.text,
      blocks: parseJson<Json>(s.blocks as string | null, null),
      attachments: parseJson<Json>(s.attachments as string | null, null),
      threadTs: s.thread_ts,
      postAt: s.post_at,
      status: s.status,
      postedTs: s.posted_ts,
      ...(s.metadata ? { metadata: parseJson<Json>(s.metadata as string, null) } : {}),
      ...(s.reply_broadcast ? { replyBroadcast: true } : {}),
    })
  })
  const files = each('files', FILES, (f, out) => {
    out[String(f.id)] = j({
      id: f.id,
      name: f.name,
      title: f.title,
      mimetype: f.mimetype,
      size: f.size,
      user: f.user_id,
      channels: parseJson<string[]>(String(f.channels), []),
      publicShared: f.public_shared === 1,
      deleted: f.deleted === 1,
      pending: f.pending === 1,
      // What a member who opens the file reads: the secret scan reads it (docs/decisions/0406). A deleted file keeps
      // its bytes in the row for the oracle's `fileText` only (0437): nobody opens it, so the dump shows none.
      body: f.deleted === 1 ? null : fileBody(f.data as unknown),
    })
  })
  const reminders = each('reminders', REMINDERS, (r, out) => {
    out[String(r.id)] = j({
      id: r.id,
      user: r.user_id,
      creator: r.creator,
      text: r.text,
      time: r.time,
      completeTs: r.complete_ts,
      fired: r.fired === 1,
      ...(r.recurrence ? { recurrence: parseJson(String(r.recurrence), {}) } : {}),
    })
  })
  const stars = each('stars', STARS, (s, out) => {
    out[`${s.user_id}/${s.channel_id}/${s.ts}/${s.file_id}`] = j({
      user: s.user_id,
      channel: s.channel_id,
      ts: s.ts,
      file: s.file_id,
    })
  })
  const bookmarks = each('bookmarks', BOOKMARKS, (b, out) => {
    out[String(b.id)] = j({
      id: b.id,
      channel: b.channel_id,
      title: b.title,
      link: b.link,
      emoji: b.emoji,
      user: b.user_id,
    })
  })
  const usergroups = each('usergroups', USERGROUPS, (g, out) => {
    out[String(g.id)] = j({
      id: g.id,
      handle: g.handle,
      name: g.name,
      description: g.description,
      users: parseJson<string[]>(String(g.users), []),
      disabled: g.disabled === 1,
      // The group's default channels (`prefs.channels`), so an unasked change to them is seen (docs/decisions/0472).
      channels: parseJson<string[]>(String(g.channels), []),
    })
  })
  return {
    version: 1,
    entities: { users, channels, messages, scheduled, files, reminders, stars, bookmarks, usergroups, ...dumpMore(db) },
  }
}

const NONE: readonly string[] = Object.freeze([])

/** The reads a message entity is built from: messages, channels (names), pins and reactions. */
type MessageReads = [Rows<Keyed<MessageRow>>, Rows<ChannelRow>, Rows<readonly [string, string]>, Rows<Reaction>]

/**
 * The messages collection built from the four reads' kept rows (envs/core/dump-rows.ts `since`), kept with the
 * message read, with the identities of the other three kept reads (their `derived` maps, one per kept read).
 */
type MessagesBase = { inputs: readonly unknown[]; collection: Record<string, Json> }
const BASE = 'slack.messages.base'

const keptInputs = (reads: MessageReads) => reads.slice(1).map((r) => r.since?.derived)

/** Keeps a collection built from the kept rows of all four reads as their base. */
function keepMessagesBase(reads: MessageReads, collection: Record<string, Json>): void {
  const since = reads[0].since
  if (!since || !reads.every((r) => r.since && r.rows === r.since.kept)) return
  const inputs = keptInputs(reads)
  const kept = since.derived.get(BASE) as MessagesBase | undefined
  if (!kept || !inputs.every((x, i) => x === kept.inputs[i])) since.derived.set(BASE, { inputs, collection })
}

/**
 * For rows written since hold(), with the base built from the very kept reads: the base collection, the message
 * keys of the old and fresh message, pin and reaction rows (`touched`), and the ids of the old and fresh channel
 * rows (`channels`: their messages' channel name may differ). A message's entity is built from its row, its
 * channel's name, its pin and its reactions alone (memoised by their values): one neither touched nor in such a
 * channel has the very kept row, name, pin and reaction list, so an entity equal to the base's (docs/decisions/0347).
 */
function messagesBase(
  reads: MessageReads,
): { collection: Record<string, Json>; touched: Set<string>; channels: ReadonlySet<unknown> } | undefined {
  const [messages, channels, pins, reactions] = reads
  if (!reads.every((r) => r.since) || reads.every((r) => r.rows === r.since!.kept)) return undefined
  const base = messages.since!.derived.get(BASE) as MessagesBase | undefined
  const inputs = keptInputs(reads)
  if (!base || !inputs.every((x, i) => x === base.inputs[i])) return undefined
  const touched = new Set<string>()
  for (const rows of [messages.since!.old, messages.since!.fresh, reactions.since!.old, reactions.since!.fresh]) {
    for (const r of rows) touched.add(r.key)
  }
  for (const rows of [pins.since!.old, pins.since!.fresh]) for (const [ch, ts] of rows) touched.add(`${ch}/${ts}`)
  const changed = new Set<unknown>()
  for (const rows of [channels.since!.old, channels.since!.fresh]) for (const ch of rows) changed.add(ch.id)
  return { collection: base.collection, touched, channels: changed }
}

/** The keys that may differ from the base: the touched ones and every message of a channel whose row was written. */
function noted(base: NonNullable<ReturnType<typeof messagesBase>>, rows: readonly Keyed<MessageRow>[]): Set<string> {
  if (!base.channels.size) return base.touched
  const keys = new Set(base.touched)
  // A base key missing from the rows is touched (its kept row was deleted or moved, so noted): the rows suffice.
  for (const { key, row } of rows) if (base.channels.has(row.channel_id)) keys.add(key)
  return keys
}

/** Rows as objects keyed by column name (what `SELECT *` gives), read through envs/core/dump-rows.ts. */
function everyColumn<T>(table: SQLiteTable, order: string[]): TableRead<T> {
  const columns = columnNames(table)
  return tableRead(getTableName(table), columns, order, (values) => {
    const row: Record<string, unknown> = {}
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i]
    return row as T
  })
}

const USERS = everyColumn<UserRow>(slackUsers, ['rowid'])
const MEMBERS = tableRead('slack_members', ['channel_id', 'user_id'], ['rowid'])
const CHANNELS = everyColumn<ChannelRow>(slackChannels, ['rowid'])
const PINS = tableRead('slack_pins', ['channel_id', 'ts'], ['rowid'])
type Reaction = { readonly key: string; readonly name: string; readonly user: string }
// `seq` is read too (unused) so that a written table's rows are put in order in JS (envs/core/dump-rows.ts).
const REACTIONS = tableRead(
  'slack_reactions',
  ['channel_id', 'ts', 'name', 'user_id', 'seq'],
  ['seq', 'name', 'user_id'],
  (v): Reaction => ({ key: `${v[0]}/${v[1]}`, name: v[2] as string, user: v[3] as string }),
)
/** Messages with their entity key (`<channel>/<ts>`), made once per row read (kept rows keep it). */
const MESSAGE_COLUMNS = columnNames(slackMessages)
type Keyed<T> = { readonly key: string; readonly row: T }
const MESSAGES = tableRead('slack_messages', MESSAGE_COLUMNS, ['ts'], (values): Keyed<MessageRow> => {
  const row: Record<string, unknown> = {}
  for (let i = 0; i < MESSAGE_COLUMNS.length; i++) row[MESSAGE_COLUMNS[i]!] = values[i]
  const m = row as MessageRow
  return { key: `${m.channel_id}/${m.ts}`, row: m }
})
type Row = { [k: string]: string | number | null }
/** A file's bytes as the UTF-8 text a reader sees, up to the first MiB; null where none are stored. */
const fileBody = (data: unknown) => (Buffer.isBuffer(data) ? data.toString('utf8', 0, 1 << 20) : null)
const SCHEDULED = everyColumn<Row>(slackScheduled, ['rowid'])
const FILES = tableRead(
  'slack_files',
  ['id', 'name', 'title', 'mimetype', 'size', 'user_id', 'channels', 'public_shared', 'deleted', 'pending', 'data'],
  ['rowid'],
  (v) =>
    ({
      id: v[0],
      name: v[1],
      title: v[2],
      mimetype: v[3],
      size: v[4],
      user_id: v[5],
      channels: v[6],
      public_shared: v[7],
      deleted: v[8],
      pending: v[9],
      data: v[10] as Row[string],
    }) as Row,
)
const REMINDERS = everyColumn<Row>(slackReminders, ['rowid'])
const STARS = everyColumn<Row>(slackStars, ['rowid'])
const BOOKMARKS = everyColumn<Row>(slackBookmarks, ['rowid'])
const USERGROUPS = everyColumn<Row>(slackUsergroups, ['rowid'])

/** `{ name: [user…] }` from [name, user]… in reaction order (what groupReactions in map.ts gives, as an object). */
function reactionsJson(flat: readonly string[]): Json {
  const out = new Map<string, string[]>()
  for (let i = 0; i < flat.length; i += 2) {
    const users = out.get(flat[i]!)
    if (users) users.push(flat[i + 1]!)
    else out.set(flat[i]!, [flat[i + 1]!])
  }
  return Object.fromEntries(out)
}

/** The message a `pinned_item` notice names, "<channel id>/<ts>" (null when its meta says none). */
function pinnedItemOf(meta: string | null): string | null {
  const item = parseJson<{ item?: { channel?: string; ts?: string } }>(meta, {}).item
  return item?.channel && item.ts ? `${item.channel}/${item.ts}` : null
}
