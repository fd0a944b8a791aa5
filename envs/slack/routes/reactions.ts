import { z } from 'zod'
import { stmt } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { nextCounter } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import {
  canSee,
  channelById,
  me,
  messageAt,
  nowSec,
  teamDomain,
  visibleChannel,
  type MessageRow,
} from '../store/core.ts'
import { messageWire } from '../map.ts'
import { insertMessage } from '../store/messages.ts'
import { canonicalEmoji, emojiNames, isKnownEmoji } from '../store/emoji.ts'

export const reactionsRouter = createSlackRouter()

const opt = () => z.string().optional()
const target = { channel: opt(), timestamp: opt(), file: opt(), file_comment: opt() }
const NAME = /^[a-z0-9_+\-']+(::skin-tone-[2-6])?$/

/** The message a reaction/pin call points at (channel + timestamp). */
function targetMessage(c: WorldContext, a: { channel?: string; timestamp?: string; file?: string }) {
  const db = c.var.world.db
  if (a.file) throw new SlackApiError('file_not_found')
  if (!a.channel || !a.timestamp) throw new SlackApiError('no_item_specified')
  const ch = visibleChannel(db, a.channel, me(c).id)
  const msg = messageAt(db, ch.id, a.timestamp)
  // A deleted parent's tombstone is no message to react to or pin.
  if (!msg || msg.subtype === 'tombstone') throw new SlackApiError('message_not_found')
  return { db, ch, msg }
}

const permalink = (c: WorldContext, m: MessageRow) =>
  `https://${teamDomain(c.var.world.db)}.slack.com/archives/${m.channel_id}/p${m.ts.replace('.', '')}`

slackMethod(reactionsRouter, {
  name: 'reactions.add',
  args: z.object({ ...target, name: opt() }),
  scopes: { user: ['reactions:write'], bot: ['reactions:write'] },
  handler: (c, a) =>
    c.var.world.tx(() => {
      const name = (a.name ?? '').replace(/^:|:$/g, '')
      if (!name) throw new SlackApiError('invalid_name')
      if (!NAME.test(name)) throw new SlackApiError('invalid_name')
      const { db, ch, msg } = targetMessage(c, a)
      if (!isKnownEmoji(db, name)) throw new SlackApiError('invalid_name')
      if (ch.is_archived) throw new SlackApiError('is_archived')
      const self = me(c).id
      // One emoji is one reaction whichever of its names is sent (`thumbsup` and `+1`); Slack answers its own name.
      const has = stmt(
        db,
        'SELECT 1 FROM slack_reactions WHERE channel_id = ? AND ts = ? AND name IN (SELECT value FROM json_each(?)) ' +
          'AND user_id = ?',
      ).get(ch.id, msg.ts, JSON.stringify(emojiNames(name)), self)
      if (has) throw new SlackApiError('already_reacted')
      const distinct = stmt(
        db,
        'SELECT COUNT(DISTINCT name) AS n FROM slack_reactions WHERE channel_id = ? AND ts = ?',
      ).get(ch.id, msg.ts) as { n: number }
      if (distinct.n >= 23) throw new SlackApiError('too_many_emoji')
      stmt(db, 'INSERT INTO slack_reactions (channel_id, ts, name, user_id, seq) VALUES (?, ?, ?, ?, ?)').run(
        ch.id,
        msg.ts,
        canonicalEmoji(name),
        self,
        nextCounter(db, 'slack.reaction'),
      )
      return {}
    }),
})

slackMethod(reactionsRouter, {
  name: 'reactions.remove',
  args: z.object({ ...target, name: opt() }),
  scopes: { user: ['reactions:write'], bot: ['reactions:write'] },
  handler: (c, a) =>
    c.var.world.tx(() => {
      const name = (a.name ?? '').replace(/^:|:$/g, '')
      if (!name) throw new SlackApiError('invalid_name')
      const { db, ch, msg } = targetMessage(c, a)
      const res = stmt(
        db,
        'DELETE FROM slack_reactions WHERE channel_id = ? AND ts = ? AND name IN (SELECT value FROM json_each(?)) ' +
          'AND user_id = ?',
      ).run(ch.id, msg.ts, JSON.stringify(emojiNames(name)), me(c).id)
      if (res.changes === 0) throw new SlackApiError('no_reaction')
      return {}
    }),
})

slackMethod(reactionsRouter, {
  name: 'reactions.get',
  args: z.object({ ...target, full: slackBool().optional() }),
  scopes: { user: ['reactions:read'], bot: ['reactions:read'] },
  handler: (c, a) => {
    const { db, ch, msg } = targetMessage(c, a)
    return {
      type: 'message',
      channel: ch.id,
      message: { ...messageWire(db, msg, { viewer: me(c).id }), permalink: permalink(c, msg) },
    }
  },
})

slackMethod(reactionsRouter, {
  name: 'reactions.list',
  args: z.object({
    user: opt(),
    full: slackBool().optional(),
    count: slackInt().optional(),
    page: slackInt().optional(),
    limit: slackInt().optional(),
    cursor: opt(),
  }),
  scopes: { user: ['reactions:read'], bot: ['reactions:read'] },
  handler: (c, a) => {
    const db = c.var.world.db
    const viewer = me(c).id
    const who = a.user ?? viewer
    const rows = stmt(
      db,
      'SELECT channel_id, ts, MAX(seq) AS seq FROM slack_reactions WHERE user_id = ? GROUP BY channel_id, ts ORDER BY seq DESC',
    ).all(who) as { channel_id: string; ts: string }[]
    const items = rows.flatMap((r) => {
      const ch = channelById(db, r.channel_id)
      const msg = messageAt(db, r.channel_id, r.ts)
      if (!ch || !msg || !canSee(db, ch, viewer)) return []
      return [
        {
          type: 'message',
          channel: ch.id,
          message: { ...messageWire(db, msg, { viewer }), permalink: permalink(c, msg) },
        },
      ]
    })
    const count = Math.min(Math.max(a.limit ?? a.count ?? 100, 1), 1000)
    const page = Math.max(a.page ?? 1, 1)
    return {
      items: items.slice((page - 1) * count, page * count),
      paging: { count, total: items.length, page, pages: Math.max(1, Math.ceil(items.length / count)) },
      response_metadata: { next_cursor: '' },
    }
  },
})

slackMethod(reactionsRouter, {
  name: 'pins.add',
  args: z.object(target),
  scopes: { user: ['pins:write'], bot: ['pins:write'] },
  handler: (c, a) =>
    c.var.world.tx(() => {
      const { db, ch, msg } = targetMessage(c, a)
      if (ch.is_archived) throw new SlackApiError('is_archived')
      const res = stmt(
        db,
        'INSERT INTO slack_pins (channel_id, ts, created_by, created) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ).run(ch.id, msg.ts, me(c).id, nowSec(db))
      if (res.changes === 0) throw new SlackApiError('already_pinned')
      // Slack records a pin in the channel itself: a `pinned_item` message by the pinner, left in the history when
      // the pin is taken off again (pins.remove posts nothing in the channel).
      // Deviation: `item` names the pinned message (type, channel, ts) rather than carrying it whole, and no
      // Slackbot `unpinned_item` DM goes to the first pinner when another removes the pin (COVERAGE.md).
      insertMessage(db, {
        channelId: ch.id,
        userId: me(c).id,
        subtype: 'pinned_item',
        text: `<@${me(c).id}> pinned a message to this channel.`,
        meta: { item_type: ch.kind === 'channel' ? 'C' : 'G', item: { type: 'message', channel: ch.id, ts: msg.ts } },
      })
      return {}
    }),
})

slackMethod(reactionsRouter, {
  name: 'pins.remove',
  args: z.object(target),
  scopes: { user: ['pins:write'], bot: ['pins:write'] },
  handler: (c, a) =>
    c.var.world.tx(() => {
      const { db, ch, msg } = targetMessage(c, a)
      const res = stmt(db, 'DELETE FROM slack_pins WHERE channel_id = ? AND ts = ?').run(ch.id, msg.ts)
      if (res.changes === 0) throw new SlackApiError('no_pin')
      return {}
    }),
})

slackMethod(reactionsRouter, {
  name: 'pins.list',
  args: z.object({ channel: opt() }),
  scopes: { user: ['pins:read'], bot: ['pins:read'] },
  handler: (c, a) => {
    const db = c.var.world.db
    const ch = visibleChannel(db, a.channel, me(c).id)
    const rows = stmt(db, 'SELECT * FROM slack_pins WHERE channel_id = ? ORDER BY created DESC, rowid DESC').all(
      ch.id,
    ) as { ts: string; created: number; created_by: string }[]
    const items = rows.map((p) => ({
      type: 'message',
      created: p.created,
      created_by: p.created_by,
      channel: ch.id,
      message: {
        ...messageWire(db, messageAt(db, ch.id, p.ts)!, { viewer: me(c).id }),
        permalink: permalink(c, messageAt(db, ch.id, p.ts)!),
      },
    }))
    return { items }
  },
})
