import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackJson, slackMethod, type WorldContext } from '../../core/http.ts'
import { slackId, slackTs } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { me, messageAt, nowSec, teamDomain, teamId, visibleChannel, type UserRow } from '../store/core.ts'
import { assertCanPost, insertMessage, resolveTarget } from '../store/messages.ts'
import { messageWire } from '../map.ts'
import { checkedMetadata, withWarning } from './metadata.ts'
import { linkNames, linkNamesOn } from '../store/link-names.ts'

export const chatRouter = createSlackRouter()

const WRITE = { user: ['chat:write'], bot: ['chat:write'] }
const opt = () => z.string().optional()
const blocksArg = slackJson(z.array(z.record(z.string(), z.unknown()), { error: 'invalid_blocks' }).max(50)).optional()
const attachmentsArg = slackJson(z.array(z.record(z.string(), z.unknown()))).optional()

/** Body of a post: text, blocks, attachments; Slack demands at least one. */
const postArgs = z.object({
  channel: opt(),
  text: opt(),
  blocks: blocksArg,
  attachments: attachmentsArg,
  thread_ts: opt(),
  reply_broadcast: slackBool().optional(),
  unfurl_links: slackBool().optional(),
  unfurl_media: slackBool().optional(),
  mrkdwn: slackBool().optional(),
  as_user: slackBool().optional(),
  username: opt(),
  icon_emoji: opt(),
  icon_url: opt(),
  parse: opt(),
  link_names: z.unknown().optional(),
  metadata: z.unknown().optional(),
})

/** Sender (the token's user or bot) and the target conversation, checked for posting. */
function target(c: WorldContext, channel: string | undefined) {
  const db = c.var.world.db
  const sender = me(c)
  if (!channel) throw new SlackApiError('channel_not_found')
  const ch = resolveTarget(db, channel, sender)
  if (!ch) throw new SlackApiError('channel_not_found')
  assertCanPost(db, ch, sender)
  return { db, sender, ch }
}

function checkBody(a: { text?: string; blocks?: unknown[]; attachments?: unknown[] }) {
  if (!a.text && !(a.blocks && a.blocks.length) && !(a.attachments && a.attachments.length))
    throw new SlackApiError('no_text')
  if (a.text && a.text.length > 40000) throw new SlackApiError('msg_too_long')
  for (const b of a.blocks ?? [])
    if (typeof (b as { type?: unknown }).type !== 'string') throw new SlackApiError('invalid_blocks')
}

/** Checks a thread parent exists in the channel. */
function threadParent(c: WorldContext, channelId: string, threadTs: string | undefined) {
  if (!threadTs) return undefined
  const parent = messageAt(c.var.world.db, channelId, threadTs)
  // Deviation: Slack posts a reply to an unknown thread_ts silently; we refuse with thread_not_found.
  if (!parent) throw new SlackApiError('thread_not_found')
  return parent.thread_ts ?? parent.ts
}

/**
 * The text as stored: with names linked when `link_names` is on or `parse` is `full` (store/link-names.ts).
 * Deviation: the vendored references say only that `parse` "change[s] how messages are treated" (`full` or `none`;
 * chat.update defaults to `client`); `full` links what `link_names` links (broadcast words, enabled user-group
 * handles), the conservative reading for the oracles (docs/decisions/0444): people, channels and URLs are not linked,
 * and markup already in the text (`<@U…>`, `<!here>`) is kept, not escaped.
 */
const shownText = (db: Db, a: { text?: string; link_names?: unknown; parse?: string }) =>
  linkNamesOn(a.link_names) || a.parse === 'full' ? linkNames(db, a.text ?? '') : (a.text ?? '')

const botOf = (u: UserRow) => (u.is_bot ? u.bot_id : null)

slackMethod(chatRouter, {
  name: 'chat.postMessage',
  args: postArgs,
  scopes: WRITE,
  handler: (c, a) => {
    checkBody(a)
    const { metadata, warning } = checkedMetadata(a.metadata)
    return c.var.world.tx(() => {
      const { db, sender, ch } = target(c, a.channel)
      const threadTs = threadParent(c, ch.id, a.thread_ts)
      const row = insertMessage(db, {
        channelId: ch.id,
        userId: sender.id,
        botId: botOf(sender),
        text: shownText(db, a),
        blocks: a.blocks,
        attachments: a.attachments,
        threadTs,
        replyBroadcast: Boolean(threadTs && a.reply_broadcast),
        metadata,
        // A bot's post may be shown under another name (`chat:write.customize`); a user's post is the user's.
        username: sender.is_bot ? a.username : undefined,
      })
      const message = messageWire(db, row, { metadata: true })
      return withWarning({ channel: ch.id, ts: row.ts, message }, warning)
    })
  },
})

slackMethod(chatRouter, {
  name: 'chat.meMessage',
  args: z.object({ channel: opt(), text: opt() }),
  scopes: WRITE,
  handler: (c, a) => {
    if (!a.text) throw new SlackApiError('no_text')
    return c.var.world.tx(() => {
      const { db, sender, ch } = target(c, a.channel)
      const row = insertMessage(db, { channelId: ch.id, userId: sender.id, text: a.text!, subtype: 'me_message' })
      return { channel: ch.id, ts: row.ts }
    })
  },
})

slackMethod(chatRouter, {
  name: 'chat.postEphemeral',
  args: postArgs.extend({ user: opt() }),
  scopes: WRITE,
  handler: (c, a) => {
    checkBody(a)
    const { db, ch } = target(c, a.channel)
    if (!a.user || !/^[UW]/.test(a.user)) throw new SlackApiError('user_not_found')
    const row = stmt(db, 'SELECT 1 FROM slack_members WHERE channel_id = ? AND user_id = ?').get(ch.id, a.user)
    if (!row) throw new SlackApiError('user_not_in_channel')
    // Ephemeral messages are never stored (they vanish on reload in Slack too).
    return { message_ts: slackTs(db) }
  },
})

/**
 * The message an edit or delete targets, checked for authorship: another member's message answers
 * `cant_update_message` / `cant_delete_message`. Admins may delete (not edit) anyone's message with a user token.
 */
function ownMessage(c: WorldContext, channel: string | undefined, ts: string | undefined, action: 'update' | 'delete') {
  const db = c.var.world.db
  const user = me(c)
  const ch = visibleChannel(db, channel, user.id)
  const msg = ts ? messageAt(db, ch.id, ts) : undefined
  // A tombstone (a deleted parent that keeps its replies) is already deleted: nothing to edit or delete again.
  if (!msg || msg.subtype === 'tombstone') throw new SlackApiError('message_not_found')
  const adminDelete = action === 'delete' && c.var.user.isAdmin && !user.is_bot
  if (msg.user_id !== user.id && !adminDelete) throw new SlackApiError(`cant_${action}_message`)
  return { db, user, ch, msg }
}

slackMethod(chatRouter, {
  name: 'chat.update',
  args: postArgs.extend({ ts: opt(), file_ids: z.unknown().optional() }),
  scopes: WRITE,
  handler: (c, a) => {
    if (a.text === undefined && !a.blocks && !a.attachments) throw new SlackApiError('no_text')
    const { metadata, warning } = checkedMetadata(a.metadata)
    return c.var.world.tx(() => {
      const { db, user, ch, msg } = ownMessage(c, a.channel, a.ts, 'update')
      if (ch.is_archived) throw new SlackApiError('is_archived')
      const text = a.text !== undefined ? shownText(db, a) : msg.text
      const blocks = a.blocks !== undefined ? JSON.stringify(a.blocks) : a.text !== undefined ? null : msg.blocks
      const attachments = a.attachments !== undefined ? JSON.stringify(a.attachments) : msg.attachments
      // Metadata given replaces the post's; none given leaves it.
      const meta = metadata ? JSON.stringify(metadata) : msg.metadata
      stmt(
        db,
        'UPDATE slack_messages SET text = ?, blocks = ?, attachments = ?, metadata = ?, edited_ts = ?, ' +
          'edited_user = ? WHERE channel_id = ? AND ts = ?',
      ).run(text, blocks, attachments, meta, slackTs(db), user.id, ch.id, msg.ts)
      const row = messageAt(db, ch.id, msg.ts)!
      const wire = messageWire(db, row, { metadata: true })
      return withWarning({ channel: ch.id, ts: msg.ts, text, message: { ...wire, ts: undefined } }, warning)
    })
  },
})

slackMethod(chatRouter, {
  name: 'chat.delete',
  args: z.object({ channel: opt(), ts: opt(), as_user: slackBool().optional() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx(() => {
      const { db, ch, msg } = ownMessage(c, a.channel, a.ts, 'delete')
      // A parent with replies leaves a tombstone, like Slack's "This message was deleted."
      const replies = stmt(
        db,
        'SELECT COUNT(*) AS n FROM slack_messages WHERE channel_id = ? AND thread_ts = ? AND ts != ?',
      ).get(ch.id, msg.ts, msg.ts) as { n: number }
      if (msg.thread_ts === msg.ts && replies.n > 0) {
        stmt(
          db,
          "UPDATE slack_messages SET subtype = 'tombstone', text = 'This message was deleted.', blocks = NULL, attachments = NULL, files = NULL WHERE channel_id = ? AND ts = ?",
        ).run(ch.id, msg.ts)
      } else stmt(db, 'DELETE FROM slack_messages WHERE channel_id = ? AND ts = ?').run(ch.id, msg.ts)
      // Its reactions, pin and stars go with the text, tombstone or not.
      stmt(db, 'DELETE FROM slack_reactions WHERE channel_id = ? AND ts = ?').run(ch.id, msg.ts)
      stmt(db, 'DELETE FROM slack_pins WHERE channel_id = ? AND ts = ?').run(ch.id, msg.ts)
      stmt(db, 'DELETE FROM slack_stars WHERE channel_id = ? AND ts = ?').run(ch.id, msg.ts)
      // The last reply of a deleted parent takes its tombstone along.
      if (msg.thread_ts && msg.thread_ts !== msg.ts) {
        const left = stmt(
          db,
          'SELECT COUNT(*) AS n FROM slack_messages WHERE channel_id = ? AND thread_ts = ? AND ts != ?',
        ).get(ch.id, msg.thread_ts, msg.thread_ts) as { n: number }
        if (left.n === 0)
          stmt(db, "DELETE FROM slack_messages WHERE channel_id = ? AND ts = ? AND subtype = 'tombstone'").run(
            ch.id,
            msg.thread_ts,
          )
      }
      return { channel: ch.id, ts: msg.ts }
    }),
})

slackMethod(chatRouter, {
  name: 'chat.getPermalink',
  args: z.object({ channel: opt(), message_ts: opt() }),
  scopes: { user: [], bot: [] },
  handler: (c, a) => {
    const db = c.var.world.db
    const ch = visibleChannel(db, a.channel, me(c).id)
    const msg = a.message_ts ? messageAt(db, ch.id, a.message_ts) : undefined
    if (!msg) throw new SlackApiError('message_not_found')
    const base = `https://${teamDomain(db)}.slack.com/archives/${ch.id}/p${msg.ts.replace('.', '')}`
    const thread = msg.thread_ts && msg.thread_ts !== msg.ts ? `?thread_ts=${msg.thread_ts}&cid=${ch.id}` : ''
    return { permalink: base + thread, channel: ch.id }
  },
})

slackMethod(chatRouter, {
  name: 'chat.scheduleMessage',
  args: postArgs.extend({ post_at: z.union([slackInt(), z.string()]).optional() }),
  scopes: WRITE,
  handler: (c, a) => {
    checkBody(a)
    const postAt = typeof a.post_at === 'number' ? a.post_at : Number(a.post_at)
    if (a.post_at === undefined || !Number.isFinite(postAt)) throw new SlackApiError('invalid_time')
    const { metadata, warning } = checkedMetadata(a.metadata)
    return c.var.world.tx(() => {
      const { db, sender, ch } = target(c, a.channel)
      const now = nowSec(db)
      if (postAt <= now) throw new SlackApiError('time_in_past')
      if (postAt > now + 120 * 86400) throw new SlackApiError('time_too_far')
      const threadTs = threadParent(c, ch.id, a.thread_ts)
      const id = slackId(db, 'Q')
      stmt(
        db,
        'INSERT INTO slack_scheduled (id, channel_id, user_id, bot_id, text, blocks, attachments, thread_ts, ' +
          'post_at, created, metadata, reply_broadcast) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)',
      ).run(
        id,
        ch.id,
        sender.id,
        botOf(sender),
        shownText(db, a),
        a.blocks ? JSON.stringify(a.blocks) : null,
        a.attachments ? JSON.stringify(a.attachments) : null,
        threadTs ?? null,
        Math.floor(postAt),
        Math.floor(nowMs(db) / 1000),
        metadata ? JSON.stringify(metadata) : null,
        // As chat.postMessage: a broadcast only means something on a reply.
        threadTs && a.reply_broadcast ? 1 : 0,
      )
      // The pending message is a `delayed_message` carrying the team (chat.scheduleMessage success schema).
      const message: Record<string, unknown> = {
        user: sender.id,
        type: 'delayed_message',
        text: a.text ?? '',
        team: teamId(db),
      }
      if (a.blocks) message.blocks = a.blocks
      if (sender.is_bot) message.bot_id = sender.bot_id
      return withWarning({ channel: ch.id, scheduled_message_id: id, post_at: Math.floor(postAt), message }, warning)
    })
  },
})

type ScheduledRow = { id: string; channel_id: string; post_at: number; created: number; text: string; user_id: string }

slackMethod(chatRouter, {
  name: 'chat.scheduledMessages.list',
  args: z.object({
    channel: opt(),
    latest: opt(),
    oldest: opt(),
    limit: slackInt().optional(),
    cursor: opt(),
    team_id: opt(),
  }),
  scopes: WRITE,
  handler: (c, a) => {
    const db = c.var.world.db
    const user = me(c)
    if (a.channel) visibleChannel(db, a.channel, user.id)
    let rows = stmt(
      db,
      "SELECT * FROM slack_scheduled WHERE status = 'pending' AND user_id = ? ORDER BY post_at, id",
    ).all(user.id) as ScheduledRow[]
    if (a.channel) rows = rows.filter((r) => r.channel_id === a.channel)
    if (a.latest) rows = rows.filter((r) => r.post_at <= Number(a.latest))
    if (a.oldest) rows = rows.filter((r) => r.post_at >= Number(a.oldest))
    const start = a.cursor ? Number(Buffer.from(a.cursor, 'base64').toString().replace('next:', '')) : 0
    if (!Number.isInteger(start)) throw new SlackApiError('invalid_cursor')
    const limit = a.limit && a.limit > 0 ? a.limit : 100
    const page = rows.slice(start, start + limit)
    const next = start + limit < rows.length ? Buffer.from(`next:${start + limit}`).toString('base64') : ''
    return {
      scheduled_messages: page.map((r) => ({
        id: r.id,
        channel_id: r.channel_id,
        post_at: r.post_at,
        date_created: r.created,
        text: r.text,
      })),
      response_metadata: { next_cursor: next },
    }
  },
})

slackMethod(chatRouter, {
  name: 'chat.deleteScheduledMessage',
  args: z.object({ channel: opt(), scheduled_message_id: opt(), as_user: slackBool().optional() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const user = me(c)
      const ch = visibleChannel(db, a.channel, user.id)
      const row = stmt(db, "SELECT * FROM slack_scheduled WHERE id = ? AND channel_id = ? AND status = 'pending'").get(
        a.scheduled_message_id ?? '',
        ch.id,
      ) as ScheduledRow | undefined
      if (!row || row.user_id !== user.id) throw new SlackApiError('invalid_scheduled_message_id')
      stmt(db, "UPDATE slack_scheduled SET status = 'deleted' WHERE id = ?").run(row.id)
      return {}
    }),
})
