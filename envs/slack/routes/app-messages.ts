import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackJson, slackMethod, type WorldContext } from '../../core/http.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { me, messageAt, visibleChannel, type UserRow } from '../store/core.ts'
import { assertCanPost, insertMessage, resolveTarget } from '../store/messages.ts'
import { messageWire } from '../map.ts'
import { parseJsonWithin } from '../../core/json-width.ts'

// What apps do to messages beyond posting: link unfurls (chat.unfurl), streamed replies
// (chat.startStream → appendStream → stopStream) and assistant thread presentation (assistant.threads.*).

export const appMessagesRouter = createSlackRouter()
const opt = () => z.string().optional()
const CHAT = { user: ['chat:write'], bot: ['chat:write'] }

const Unfurls = z.record(z.string(), z.record(z.string(), z.unknown()))
slackMethod(appMessagesRouter, {
  name: 'chat.unfurl',
  scopes: { user: ['links:write'], bot: ['links:write'] },
  args: z.object({
    channel: opt(),
    ts: opt(),
    unfurls: z.unknown().optional(),
    source: opt(),
    unfurl_id: opt(),
    user_auth_message: opt(),
    user_auth_required: z.unknown().optional(),
    user_auth_url: opt(),
    user_auth_blocks: z.unknown().optional(),
  }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      if (a.unfurl_id || a.source) throw new SlackApiError('invalid_source') // only channel + ts unfurls are modelled
      const caller = me(c)
      const ch = visibleChannel(db, a.channel, caller.id)
      const m = a.ts ? messageAt(db, ch.id, a.ts) : undefined
      if (!m) throw new SlackApiError('cannot_find_message')
      if (a.unfurls === undefined || a.unfurls === '') throw new SlackApiError('missing_unfurls')
      const parsed = Unfurls.safeParse(typeof a.unfurls === 'string' ? safeJson(a.unfurls) : a.unfurls)
      if (!parsed.success || Object.keys(parsed.data).length === 0) throw new SlackApiError('invalid_unfurls_format')
      // Slack unfurls only links that appear in the message.
      const links = new Set(
        [...m.text.matchAll(/<(https?:\/\/[^|>]+)(\|[^>]*)?>|(https?:\/\/\S+)/g)].map((x) => x[1] ?? x[3]!),
      )
      for (const url of Object.keys(parsed.data)) if (!links.has(url)) throw new SlackApiError('cannot_unfurl_url')
      for (const [url, att] of Object.entries(parsed.data)) {
        stmt(
          db,
          'INSERT INTO slack_unfurls (channel_id, ts, url, attachment, app_user) VALUES (?,?,?,?,?) ON CONFLICT DO UPDATE SET attachment = excluded.attachment, app_user = excluded.app_user',
        ).run(ch.id, m.ts, url, JSON.stringify(att), caller.id)
      }
      return {}
    }),
})
const safeJson = (s: string) => {
  try {
    return parseJsonWithin(s)
  } catch {
    return undefined
  }
}

// Streaming.
type StreamRow = { channel_id: string; ts: string; user_id: string; state: string }
function streamOf(
  c: WorldContext,
  channel: string | undefined,
  ts: string | undefined,
): { db: Db; row: StreamRow; caller: UserRow } {
  const db = c.var.world.db
  const caller = me(c)
  const ch = visibleChannel(db, channel, caller.id)
  const m = ts ? messageAt(db, ch.id, ts) : undefined
  if (!m) throw new SlackApiError('message_not_found')
  const row = stmt(db, 'SELECT * FROM slack_streams WHERE channel_id = ? AND ts = ?').get(ch.id, m.ts) as
    StreamRow | undefined
  if (!row || row.state !== 'streaming') throw new SlackApiError('message_not_in_streaming_state')
  if (row.user_id !== caller.id) throw new SlackApiError('message_not_owned_by_app')
  return { db, row, caller }
}

slackMethod(appMessagesRouter, {
  name: 'chat.startStream',
  scopes: CHAT,
  args: z.object({
    channel: opt(),
    thread_ts: opt(),
    markdown_text: opt(),
    recipient_user_id: opt(),
    recipient_team_id: opt(),
  }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const sender = me(c)
      const ch = a.channel ? resolveTarget(db, a.channel, sender) : undefined
      if (!ch) throw new SlackApiError('channel_not_found')
      assertCanPost(db, ch, sender)
      if (!a.thread_ts) throw new SlackApiError('invalid_arguments')
      const parent = messageAt(db, ch.id, a.thread_ts)
      if (!parent) throw new SlackApiError('thread_not_found')
      if (a.markdown_text !== undefined && a.markdown_text.length > 12000) throw new SlackApiError('msg_too_long')
      const row = insertMessage(db, {
        channelId: ch.id,
        userId: sender.id,
        botId: sender.is_bot ? sender.bot_id : null,
        text: a.markdown_text ?? '',
        threadTs: parent.thread_ts ?? parent.ts,
      })
      stmt(db, "INSERT INTO slack_streams (channel_id, ts, user_id, state) VALUES (?, ?, ?, 'streaming')").run(
        ch.id,
        row.ts,
        sender.id,
      )
      return { channel: ch.id, ts: row.ts }
    }),
})

slackMethod(appMessagesRouter, {
  name: 'chat.appendStream',
  scopes: CHAT,
  args: z.object({ channel: opt(), ts: opt(), markdown_text: opt() }),
  handler: (c, a) =>
    c.var.world.tx(() => {
      const { db, row } = streamOf(c, a.channel, a.ts)
      if (!a.markdown_text) throw new SlackApiError('invalid_arguments')
      stmt(db, 'UPDATE slack_messages SET text = text || ? WHERE channel_id = ? AND ts = ?').run(
        a.markdown_text,
        row.channel_id,
        row.ts,
      )
      return { channel: row.channel_id, ts: row.ts }
    }),
})

slackMethod(appMessagesRouter, {
  name: 'chat.stopStream',
  scopes: CHAT,
  args: z.object({
    channel: opt(),
    ts: opt(),
    markdown_text: opt(),
    blocks: slackJson(z.array(z.record(z.string(), z.unknown()))).optional(),
    metadata: z.unknown().optional(),
  }),
  handler: (c, a) =>
    c.var.world.tx(() => {
      const { db, row } = streamOf(c, a.channel, a.ts)
      if (a.markdown_text)
        stmt(db, 'UPDATE slack_messages SET text = text || ? WHERE channel_id = ? AND ts = ?').run(
          a.markdown_text,
          row.channel_id,
          row.ts,
        )
      if (a.blocks)
        stmt(db, 'UPDATE slack_messages SET blocks = ? WHERE channel_id = ? AND ts = ?').run(
          JSON.stringify(a.blocks),
          row.channel_id,
          row.ts,
        )
      stmt(db, "UPDATE slack_streams SET state = 'stopped' WHERE channel_id = ? AND ts = ?").run(row.channel_id, row.ts)
      return { channel: row.channel_id, ts: row.ts, message: messageWire(db, messageAt(db, row.channel_id, row.ts)!) }
    }),
})

// Assistant threads (bot tokens, assistant:write).
const threadArgs = z.object({ channel_id: opt(), thread_ts: opt() })
function assistantThread(c: WorldContext, a: { channel_id?: string; thread_ts?: string }) {
  const db = c.var.world.db
  const bot = me(c)
  const ch = visibleChannel(db, a.channel_id, bot.id)
  if (!a.thread_ts) throw new SlackApiError('invalid_arguments')
  const parent = messageAt(db, ch.id, a.thread_ts)
  if (!parent) throw new SlackApiError('thread_not_found')
  stmt(db, 'INSERT OR IGNORE INTO slack_assistant_threads (channel_id, thread_ts, updated_by) VALUES (?, ?, ?)').run(
    ch.id,
    parent.thread_ts ?? parent.ts,
    bot.id,
  )
  return { db, key: [ch.id, parent.thread_ts ?? parent.ts] as const, bot }
}
const ASSIST = { bot: ['assistant:write'] }
const BOT = ['slack_bot'] as const

slackMethod(appMessagesRouter, {
  name: 'assistant.threads.setStatus',
  scopes: ASSIST,
  tokens: BOT,
  args: threadArgs.extend({ status: z.string().optional(), loading_messages: z.unknown().optional() }),
  handler: (c, a) =>
    c.var.world.tx(() => {
      if (a.status === undefined) throw new SlackApiError('invalid_arguments')
      if (a.status.length > 50) throw new SlackApiError('invalid_arguments')
      const { db, key, bot } = assistantThread(c, a)
      stmt(
        db,
        'UPDATE slack_assistant_threads SET status = ?, updated_by = ? WHERE channel_id = ? AND thread_ts = ?',
      ).run(a.status, bot.id, ...key)
      return {}
    }),
})

slackMethod(appMessagesRouter, {
  name: 'assistant.threads.setTitle',
  scopes: ASSIST,
  tokens: BOT,
  args: threadArgs.extend({ title: opt() }),
  handler: (c, a) =>
    c.var.world.tx(() => {
      if (!a.title) throw new SlackApiError('invalid_arguments')
      const { db, key, bot } = assistantThread(c, a)
      stmt(
        db,
        'UPDATE slack_assistant_threads SET title = ?, updated_by = ? WHERE channel_id = ? AND thread_ts = ?',
      ).run(a.title, bot.id, ...key)
      return {}
    }),
})

const Prompt = z.object({ title: z.string().min(1).max(75), message: z.string().min(1).max(2000) })
slackMethod(appMessagesRouter, {
  name: 'assistant.threads.setSuggestedPrompts',
  scopes: ASSIST,
  tokens: BOT,
  args: threadArgs.extend({ prompts: slackJson(z.array(Prompt).min(1).max(4)).optional(), title: opt() }),
  handler: (c, a) =>
    c.var.world.tx(() => {
      if (!a.prompts) throw new SlackApiError('invalid_arguments')
      const { db, key, bot } = assistantThread(c, a)
      stmt(
        db,
        'UPDATE slack_assistant_threads SET prompts = ?, prompts_title = ?, updated_by = ? WHERE channel_id = ? AND thread_ts = ?',
      ).run(JSON.stringify(a.prompts), a.title ?? '', bot.id, ...key)
      return {}
    }),
})
