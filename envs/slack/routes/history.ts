import { z } from 'zod'
import { sqlRowCount, stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackMethod, type WorldContext } from '../../core/http.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { isBotCall, isMember, me, messageAt, visibleChannel, type ChannelRow, type MessageRow } from '../store/core.ts'
import { MESSAGE_COLUMNS, messagePage, messageWire, pageFacts } from '../map.ts'
import { filesWireFor } from './files.ts'
import { freezeRows, keptWhileUnwritten } from '../../core/write-epoch.ts'

export const historyRouter = createSlackRouter()

const opt = () => z.string().optional()
const HISTORY = {
  user: ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  bot: ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
}
const TS = /^\d+(\.\d+)?$/

/** Normalises a ts bound (`1700000000` → `1700000000.000000`) so string order is time order. */
function bound(v: string | undefined, fallback: string) {
  if (v === undefined || v === '') return fallback
  if (!TS.test(v)) throw new SlackApiError('invalid_ts_latest')
  const [s, us = ''] = v.split('.')
  return `${s!.padStart(10, '0')}.${us.padEnd(6, '0').slice(0, 6)}`
}

const encode = (ts: string) => Buffer.from(`next_ts:${ts}`).toString('base64')
function decode(cursor: string | undefined) {
  if (!cursor) return undefined
  const m = /^next_ts:(\d+\.\d+)$/.exec(Buffer.from(cursor, 'base64').toString())
  if (!m) throw new SlackApiError('invalid_cursor')
  return m[1]!
}

const pagingArgs = {
  channel: opt(),
  oldest: opt(),
  latest: opt(),
  inclusive: slackBool().optional(),
  limit: slackInt().optional(),
  cursor: opt(),
  include_all_metadata: slackBool().optional(),
}

const MESSAGE_KEYS = MESSAGE_COLUMNS
const MESSAGE_FIELDS = MESSAGE_KEYS.join(', ')

/**
 * Message rows read as arrays and keyed here: better-sqlite3 naming each column of each row cost about a third of
 * the page's statement (decision 0300). Same objects, same key order as `SELECT *` (the table's columns). Kept
 * while slack_messages is unwritten (decisions 0319, 0329): a page asked again reads no rows. Frozen, as they are
 * handed to every later call.
 */
function messageRows(db: Db, sql: string, channelId: string, latest: string, oldest: string): readonly MessageRow[] {
  // The channel id last: the other parts hold no NUL, so no two inputs make one key.
  const key = `history\u0000${sql}\u0000${latest}\u0000${oldest}\u0000${channelId}`
  const read = () => readMessageRows(db, sql, [channelId, latest, oldest])
  return keptWhileUnwritten(db.$client, 'slack_messages', key, read, freezeRows)
}

function readMessageRows(db: Db, sql: string, params: unknown[]): MessageRow[] {
  const rows = stmt(db, sql)
    .raw(true)
    .all(...params) as unknown[][]
  return rows.map((v) => {
    const m: Record<string, unknown> = {}
    for (let i = 0; i < MESSAGE_KEYS.length; i++) m[MESSAGE_KEYS[i]!] = v[i]
    return m as MessageRow
  })
}

/** A bot reads a public channel only once it is in it (`not_in_channel`); members of the workspace need not join. */
function botMustBeMember(c: WorldContext, ch: ChannelRow) {
  if (isBotCall(c) && ch.kind === 'channel' && !isMember(c.var.world.db, ch.id, me(c).id))
    throw new SlackApiError('not_in_channel')
}

slackMethod(historyRouter, {
  name: 'conversations.history',
  args: z.object(pagingArgs),
  scopes: HISTORY,
  handler: (c, a) => {
    const db = c.var.world.db
    const viewer = me(c).id
    const ch = visibleChannel(db, a.channel, viewer)
    botMustBeMember(c, ch)
    const limit = Math.min(Math.max(a.limit ?? 100, 1), 999)
    const oldest = bound(a.oldest, '0000000000.000000')
    let latest = bound(a.latest, '9999999999.999999')
    const inclusive = a.inclusive ?? false
    const after = decode(a.cursor)
    let latestOp = inclusive ? '<=' : '<'
    if (after) {
      latest = after
      latestOp = '<'
    }
    const rows = messageRows(
      db,
      `SELECT ${MESSAGE_FIELDS} FROM slack_messages WHERE channel_id = ? AND ts ${latestOp === '<' ? '<' : '<='} ? AND ts ${inclusive ? '>=' : '>'} ?
         AND (thread_ts IS NULL OR thread_ts = ts OR reply_broadcast = 1) ORDER BY ts DESC LIMIT ${sqlRowCount(limit + 1)}`,
      ch.id,
      latest,
      oldest,
    )
    const hasMore = rows.length > limit
    const page = rows.slice(0, limit)
    const facts = pageFacts(db, ch.id, page)
    const out: Record<string, unknown> = {
      messages: messagePage(db, page, facts, viewer, (ids) => filesWireFor(c, ids), a.include_all_metadata === true),
      has_more: hasMore,
      pin_count: (stmt(db, 'SELECT COUNT(*) AS n FROM slack_pins WHERE channel_id = ?').get(ch.id) as { n: number }).n,
      channel_actions_ts: null,
      channel_actions_count: 0,
    }
    if (hasMore) out.response_metadata = { next_cursor: encode(page.at(-1)!.ts) }
    return out
  },
})

slackMethod(historyRouter, {
  name: 'conversations.replies',
  args: z.object({ ...pagingArgs, ts: opt() }),
  scopes: HISTORY,
  handler: (c, a) => {
    const db = c.var.world.db
    const viewer = me(c).id
    const ch = visibleChannel(db, a.channel, viewer)
    botMustBeMember(c, ch)
    if (!a.ts) throw new SlackApiError('thread_not_found')
    const msg = messageAt(db, ch.id, bound(a.ts, a.ts))
    if (!msg) throw new SlackApiError('thread_not_found')
    const root = msg.thread_ts ?? msg.ts
    const limit = Math.min(Math.max(a.limit ?? 1000, 1), 1000)
    const oldest = bound(a.oldest, '0000000000.000000')
    const latest = bound(a.latest, '9999999999.999999')
    const inclusive = a.inclusive ?? false
    const after = decode(a.cursor)
    // Replies come oldest first; the parent always leads the first page.
    const all = stmt(
      db,
      'SELECT * FROM slack_messages WHERE channel_id = ? AND (ts = ? OR thread_ts = ?) ORDER BY ts',
    ).all(ch.id, root, root) as MessageRow[]
    const filtered = all.filter(
      (m) =>
        m.ts === root || ((inclusive ? m.ts >= oldest : m.ts > oldest) && (inclusive ? m.ts <= latest : m.ts < latest)),
    )
    const start = after ? filtered.findIndex((m) => m.ts > after) : 0
    const rest = start < 0 ? [] : filtered.slice(start)
    const page = rest.slice(0, limit)
    const hasMore = rest.length > limit
    const facts = pageFacts(db, ch.id, page)
    const out: Record<string, unknown> = {
      messages: page.map((m) =>
        messageWire(db, m, {
          viewer,
          withFiles: (ids) => filesWireFor(c, ids),
          facts,
          metadata: a.include_all_metadata === true,
        }),
      ),
      has_more: hasMore,
    }
    if (hasMore) out.response_metadata = { next_cursor: encode(page.at(-1)!.ts) }
    return out
  },
})
