import { stmt } from '../core/db.ts'
import type { Json, ServiceState } from '../core/service.ts'
import type { World } from '../core/world.ts'
import { parseJson, type ChannelRow, type MessageRow, type UserRow } from './store/core.ts'
import { entityMemo } from '../core/dump-memo.ts'
import { dumpMore } from './state-more.ts'

/**
 * Slack state for oracles. Shape (version 1):
 * ```
 * entities: {
 *   users:     { <U id>: { id, worldUserId, handle, isBot, botId, displayName, statusText, statusEmoji, presence } },
 *   channels:  { <C/G/D id>: { id, name, type: 'public'|'private'|'im'|'mpim', isArchived, isGeneral, topic, purpose,
 *                              creator, members: [U id…] } },
 *   messages:  { "<channel id>/<ts>": { channel, channelName, ts, user, botId, subtype, text, threadTs, isReply,
 *                              replyBroadcast, edited, blocks, attachments, files: [F id…], reactions: {name: [U id…]}, pinned } },
 *   scheduled: { <Q id>: { id, channel, user, text, blocks, attachments, threadTs, postAt (epoch s), status: 'pending'|'posted'|'deleted',
 *                          postedTs } },
 *   files:     { <F id>: { id, name, title, mimetype, size, user, channels: [id…], publicShared, deleted, pending } },
 *   reminders: { <Rm id>: { id, user, creator, text, time (epoch s), completeTs, fired } },
 *   stars:     { "<user>/<channel>/<ts>/<file>": { user, channel, ts, file } },
 *   bookmarks: { <Bk id>: { id, channel, title, link, emoji, user } },
 *   usergroups:{ <S id>: { id, handle, name, description, users: [U id…], disabled } },
 *   team:      { settings: { name, description, discoverability, icon, defaultChannels } },
 *   emoji:     { <name>: <url> | "alias:<name>" },
 *   invites:   { <id>: { id, kind: 'invite'|'request', email, realName, channels, message, guest, requester, status, reviewer } },
 *   roleAssignments: { "<role>/<entity>/<user>": { roleId, entityId, userId } },
 *   sessions:  { <n>: { id, user, client, active } },
 *   canvases:  { <F id>: { id, title, owner, channel, markdown, sections: [{id, kind, markdown}], access: {<U/C id>: level} } },
 *   lists:     { <F id>: { id, name, description, todoMode, owner, columns, items: [{id, parentId, fields, createdBy}], access } },
 *   calls:     { <R id>: { id, externalUniqueId, title, joinUrl, createdBy, dateStart, dateEnd, participants, allParticipants } },
 *   views:     { <V id>: { id, type: 'modal'|'home'|'dialog', user, app, externalId, rootViewId, previousViewId, hash, view } },
 *   remoteFiles: { <F id>: { id, externalId, title, filetype, externalUrl, channels, app } },
 *   assistantThreads: { "<channel>/<thread_ts>": { channel, threadTs, status, title, prompts } },
 *   unfurls:   { "<channel>/<ts>/<url>": { channel, ts, url, attachment } },
 *   apps:      { <A id>: { id, creator, botUser, manifest } },
 *   appRequests: { <Ar id>: { id, appId, appName, requester, message, scopes, status: 'pending'|'approved'|'restricted'|'cancelled' } },
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
  const users: Record<string, Json> = {}
  const userMemo = entityMemo(db, 'slack.users')
  for (const u of stmt(db, 'SELECT * FROM slack_users ORDER BY rowid').all() as UserRow[]) {
    users[u.id] = userMemo.entity(u.id, Object.values(u), () => ({
      id: u.id, worldUserId: u.world_user_id, handle: u.handle, isBot: u.is_bot === 1, botId: u.bot_id,
      displayName: u.display_name, statusText: u.status_text, statusEmoji: u.status_emoji, presence: u.presence,
      role: u.role, deleted: u.deleted === 1, guest: u.guest || null, expiration: u.expiration, photo: u.photo || null,
    }))
  }
  // Members, pins and reactions each in one read (not one per channel or message).
  const members = new Map<string, string[]>()
  const memberRows = stmt(db, 'SELECT channel_id, user_id FROM slack_members ORDER BY rowid').raw().all()
  for (const [ch, u] of memberRows as [string, string][]) {
    const list = members.get(ch)
    if (list) list.push(u)
    else members.set(ch, [u])
  }
  const channels: Record<string, Json> = {}
  const names = new Map<string, string>()
  const channelMemo = entityMemo(db, 'slack.channels')
  for (const ch of stmt(db, 'SELECT * FROM slack_channels ORDER BY rowid').all() as ChannelRow[]) {
    names.set(ch.id, ch.name)
    const type = { channel: 'public', group: 'private', im: 'im', mpim: 'mpim' }[ch.kind]
    const inputs: unknown[] = Object.values(ch)
    const ids = members.get(ch.id) ?? []
    inputs.push(...ids)
    channels[ch.id] = channelMemo.entity(ch.id, inputs, () => ({
      id: ch.id, name: ch.name, type, isArchived: ch.is_archived === 1, isGeneral: ch.is_general === 1,
      topic: ch.topic, purpose: ch.purpose, creator: ch.creator, members: ids, prefs: parseJson<Json>(ch.prefs, {}),
      retentionDays: ch.retention,
    }) as Json)
  }
  const messages: Record<string, Json> = {}
  const pins = new Set((stmt(db, 'SELECT channel_id, ts FROM slack_pins').all() as { channel_id: string; ts: string }[]).map((p) => `${p.channel_id}/${p.ts}`))
  // Reactions of every message, each message's in `seq` order (as reactionsOf reads them): [name, user]…
  const reactions = new Map<string, string[]>()
  const reactionRows = stmt(db, 'SELECT channel_id, ts, name, user_id FROM slack_reactions ORDER BY seq, name, user_id')
    .raw().all()
  for (const [ch, ts, name, user] of reactionRows as [string, string, string, string][]) {
    const key = `${ch}/${ts}`
    const list = reactions.get(key)
    if (list) list.push(name, user)
    else reactions.set(key, [name, user])
  }
  const messageMemo = entityMemo(db, 'slack.messages')
  for (const m of stmt(db, 'SELECT * FROM slack_messages ORDER BY ts').all() as MessageRow[]) {
    const key = `${m.channel_id}/${m.ts}`
    const channelName = names.get(m.channel_id) ?? null
    const pinned = pins.has(key)
    const reacted = reactions.get(key) ?? []
    const inputs: unknown[] = Object.values(m)
    inputs.push(channelName, pinned, ...reacted)
    messages[key] = messageMemo.entity(key, inputs, () => ({
      channel: m.channel_id, channelName, ts: m.ts, user: m.user_id, botId: m.bot_id, subtype: m.subtype, text: m.text,
      threadTs: m.thread_ts, isReply: Boolean(m.thread_ts && m.thread_ts !== m.ts), replyBroadcast: m.reply_broadcast === 1,
      edited: Boolean(m.edited_ts), blocks: parseJson<Json>(m.blocks, null), attachments: parseJson<Json>(m.attachments, null),
      files: parseJson<string[]>(m.files, []), reactions: reactionsJson(reacted), pinned,
    }))
  }
  const j = (o: Record<string, unknown>) => o as Json
  const rows = (sql: string) => stmt(db, sql).all() as { [k: string]: string | number | null }[]
  const scheduled: Record<string, Json> = {}
  for (const s of rows('SELECT * FROM slack_scheduled ORDER BY rowid')) {
    scheduled[String(s.id)] = j({
      id: s.id, channel: s.channel_id, user: s.user_id, text: s.text, blocks: parseJson<Json>(s.blocks as string | null, null),
      attachments: parseJson<Json>(s.attachments as string | null, null), threadTs: s.thread_ts, postAt: s.post_at,
      status: s.status, postedTs: s.posted_ts,
    })
  }
  const files: Record<string, Json> = {}
  for (const f of rows('SELECT id, name, title, mimetype, size, user_id, channels, public_shared, deleted, pending FROM slack_files ORDER BY rowid')) {
    files[String(f.id)] = j({ id: f.id, name: f.name, title: f.title, mimetype: f.mimetype, size: f.size, user: f.user_id, channels: parseJson<string[]>(String(f.channels), []), publicShared: f.public_shared === 1, deleted: f.deleted === 1, pending: f.pending === 1 })
  }
  const reminders: Record<string, Json> = {}
  for (const r of rows('SELECT * FROM slack_reminders ORDER BY rowid')) reminders[String(r.id)] = j({ id: r.id, user: r.user_id, creator: r.creator, text: r.text, time: r.time, completeTs: r.complete_ts, fired: r.fired === 1 })
  const stars: Record<string, Json> = {}
  for (const s of rows('SELECT * FROM slack_stars ORDER BY rowid')) stars[`${s.user_id}/${s.channel_id}/${s.ts}/${s.file_id}`] = j({ user: s.user_id, channel: s.channel_id, ts: s.ts, file: s.file_id })
  const bookmarks: Record<string, Json> = {}
  for (const b of rows('SELECT * FROM slack_bookmarks ORDER BY rowid')) bookmarks[String(b.id)] = j({ id: b.id, channel: b.channel_id, title: b.title, link: b.link, emoji: b.emoji, user: b.user_id })
  const usergroups: Record<string, Json> = {}
  for (const g of rows('SELECT * FROM slack_usergroups ORDER BY rowid')) usergroups[String(g.id)] = j({ id: g.id, handle: g.handle, name: g.name, description: g.description, users: parseJson<string[]>(String(g.users), []), disabled: g.disabled === 1 })
  return { version: 1, entities: { users, channels, messages, scheduled, files, reminders, stars, bookmarks, usergroups, ...dumpMore(db) } }
}

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
