import { stmt, type Db } from '../../core/db.ts'
import { canSee, channelById, teamId } from './core.ts'

type ShareRow = { channel_id: string; ts: string; thread_ts: string | null; user_id: string }
type Share = Record<string, unknown>

/**
 * A file's `shares` as `viewerId` sees them: `public` (public channels) and `private` (private channels, group DMs,
 * DMs) map a conversation's id to the messages carrying the file there, oldest first. A share at the top of a
 * conversation carries its thread's reply facts; one inside a thread names it by `thread_ts`. Shares whose message
 * is gone (or a tombstone without files), or in a conversation the file has left, are not listed. One indexed
 * read per file, one per share.
 */
export function sharesOf(db: Db, fileId: string, channels: string[], viewerId: string) {
  const rows = stmt(
    db,
    `SELECT s.channel_id, s.ts, m.thread_ts, m.user_id FROM slack_file_shares s
    JOIN slack_messages m ON m.channel_id = s.channel_id AND m.ts = s.ts AND m.files IS NOT NULL
    WHERE s.file_id = ? ORDER BY s.ts`,
  ).all(fileId) as ShareRow[]
  const out: { public?: Record<string, Share[]>; private?: Record<string, Share[]> } = {}
  const replies = stmt(
    db,
    `SELECT user_id, ts FROM slack_messages WHERE channel_id = ? AND thread_ts = ? AND ts <> thread_ts ORDER BY ts`,
  )
  const team = teamId(db)
  for (const r of rows) {
    const ch = channels.includes(r.channel_id) ? channelById(db, r.channel_id) : undefined
    if (!ch || !canSee(db, ch, viewerId)) continue
    const kind = ch.kind === 'channel' ? 'public' : 'private'
    const share: Share = {}
    if (r.thread_ts && r.thread_ts !== r.ts) share.thread_ts = r.thread_ts
    else {
      const thread = replies.all(r.channel_id, r.ts) as { user_id: string; ts: string }[]
      const users = [...new Set(thread.map((t) => t.user_id))]
      Object.assign(share, { reply_users: users.slice(0, 5), reply_users_count: users.length })
      share.reply_count = thread.length
      if (thread.length > 0) share.latest_reply = thread.at(-1)!.ts
    }
    share.ts = r.ts
    // Deviation: no recording shows a DM share; the mock gives it no `channel_name` (a DM has no name).
    if (ch.kind !== 'im') share.channel_name = ch.name
    Object.assign(share, { team_id: team, share_user_id: r.user_id, source: 'UNKNOWN', is_silent_share: false })
    ;((out[kind] ??= {})[r.channel_id] ??= []).push(share)
  }
  return out
}
