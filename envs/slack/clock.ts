import { stmt, type Db } from '../core/db.ts'
import { findUserById } from '../core/users.ts'
import { slackTs } from '../core/ids.ts'
import { nextOccurrence, type Recurrence } from './reminder-time.ts'
import type { World } from '../core/world.ts'
import { channelById, parseJson, userById } from './store/core.ts'
import { insertMessage, openIm } from './store/messages.ts'

type Due = {
  id: string
  post_at: number
  channel_id: string
  user_id: string
  bot_id: string | null
  text: string
  blocks: string | null
  attachments: string | null
  thread_ts: string | null
  metadata: string | null
  reply_broadcast: number
}

type Reminder = {
  id: string
  user_id: string
  text: string
  time: number
  recurrence: string | null
  anchor: number | null
}

/** A recurring reminder's next occurrence after `afterSec`, in its recipient's time zone as it is now. */
function nextTime(db: Db, r: Reminder, afterSec: number): number {
  const worldUser = userById(db, r.user_id)?.world_user_id
  const zone = (worldUser && findUserById(db, worldUser)?.timeZone) || 'UTC'
  const rule = parseJson<Recurrence>(r.recurrence!, { frequency: 'daily' })
  return nextOccurrence(rule, afterSec, zone, r.anchor ?? afterSec)
}

const DUE_PROBE =
  "SELECT EXISTS (SELECT 1 FROM slack_scheduled WHERE status = 'pending' AND post_at <= ?) OR " +
  'EXISTS (SELECT 1 FROM slack_reminders WHERE fired = 0 AND complete_ts = 0 AND time <= ?)'

/** Whether a scheduled message or a reminder is due at or before `toMs` (what slackClockAdvance would act on). */
export function slackHasDueWork(world: World, _fromMs: number, toMs: number): boolean {
  const until = Math.floor(toMs / 1000)
  return Boolean(stmt(world.db, DUE_PROBE).pluck(true).get(until, until))
}

/**
 * Posts scheduled messages and fires reminders whose time lies at or before `toMs`. Runs inside one
 * transaction; everything it reads and writes is in tables, so snapshots carry pending work.
 */
export function slackClockAdvance(world: World, fromMs: number, toMs: number): void {
  const until = Math.floor(toMs / 1000)
  const db = world.db
  // Every request moves the clock: one probe answers the usual "nothing due" before the two reads below.
  if (!slackHasDueWork(world, fromMs, toMs)) return
  const due = stmt(
    db,
    "SELECT * FROM slack_scheduled WHERE status = 'pending' AND post_at <= ? ORDER BY post_at, rowid",
  ).all(until) as Due[]
  const reminders = stmt(
    db,
    'SELECT * FROM slack_reminders WHERE fired = 0 AND complete_ts = 0 AND time <= ? ORDER BY time, rowid',
  ).all(until) as Reminder[]
  if (due.length === 0 && reminders.length === 0) return
  // Each goes out at its own time, in time order (scheduled messages before reminders due the same second): a jump
  // of the clock passes through those moments, so a message's ts is its post_at, a reminder's its time.
  type Work = { at: number; scheduled?: Due; reminder?: Reminder }
  const work: Work[] = [
    ...due.map((s) => ({ at: s.post_at, scheduled: s })),
    ...reminders.map((r) => ({ at: r.time, reminder: r })),
  ].sort((a, b) => a.at - b.at)
  world.tx((tx) => {
    for (const w of work) {
      // Never before the jump began (a message scheduled within the second it was asked goes out with the next).
      const ts = () => slackTs(tx, Math.max(w.at * 1000, fromMs))
      if (w.scheduled) postScheduled(tx, w.scheduled, ts)
      else fireReminder(tx, w.reminder!, until, ts)
    }
  })
}

function postScheduled(tx: Db, s: Due, ts: () => string): void {
  const ch = channelById(tx, s.channel_id)
  // A message scheduled into a channel that was archived meanwhile is dropped, as Slack does.
  if (!ch || ch.is_archived) {
    stmt(tx, "UPDATE slack_scheduled SET status = 'deleted' WHERE id = ?").run(s.id)
    return
  }
  const parentGone =
    s.thread_ts &&
    !stmt(tx, 'SELECT 1 FROM slack_messages WHERE channel_id = ? AND ts = ?').get(s.channel_id, s.thread_ts)
  const row = insertMessage(tx, {
    channelId: s.channel_id,
    userId: s.user_id,
    botId: s.bot_id,
    text: s.text,
    blocks: s.blocks ? JSON.parse(s.blocks) : undefined,
    attachments: s.attachments ? JSON.parse(s.attachments) : undefined,
    threadTs: parentGone ? null : s.thread_ts,
    replyBroadcast: !parentGone && !!s.thread_ts && s.reply_broadcast === 1,
    metadata: s.metadata ? (JSON.parse(s.metadata) as Record<string, unknown>) : undefined,
    ts: ts(),
  })
  stmt(tx, "UPDATE slack_scheduled SET status = 'posted', posted_ts = ? WHERE id = ?").run(row.ts, s.id)
}

function fireReminder(tx: Db, r: Reminder, until: number, ts: () => string): void {
  if (!userById(tx, r.user_id) || !userById(tx, 'USLACKBOT')) return
  const im = openIm(tx, 'USLACKBOT', r.user_id)
  insertMessage(tx, {
    channelId: im.id,
    userId: 'USLACKBOT',
    text: `Reminder: ${r.text}.`,
    subtype: 'reminder_add',
    ts: ts(),
  })
  if (!r.recurrence) stmt(tx, 'UPDATE slack_reminders SET fired = 1 WHERE id = ?').run(r.id)
  // Deviation: a recurring reminder fires once however many occurrences the clock passed (Slack, living in real
  // time, would have fired each), then waits for its next occurrence.
  else stmt(tx, 'UPDATE slack_reminders SET time = ? WHERE id = ?').run(nextTime(tx, r, until), r.id)
}
