import { z } from 'zod'
import { stmt } from '../../core/db.ts'
import { createSlackRouter, slackInt, slackMethod } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { me, nowSec, requireUser } from '../store/core.ts'
import { reminderTime } from '../reminder-time.ts'

export const remindersRouter = createSlackRouter()

const opt = () => z.string().optional()
type Row = {
  id: string
  creator: string
  user_id: string
  text: string
  time: number
  complete_ts: number
  fired: number
  recurrence: string | null
  anchor: number | null
}
/** Slack's reminder object: a recurring one carries its rule instead of a time and a completion. */
const wire = (r: Row) =>
  r.recurrence
    ? {
        id: r.id,
        creator: r.creator,
        user: r.user_id,
        text: r.text,
        recurring: true,
        recurrence: JSON.parse(r.recurrence),
      }
    : {
        id: r.id,
        creator: r.creator,
        user: r.user_id,
        text: r.text,
        recurring: false,
        time: r.time,
        complete_ts: r.complete_ts,
      }

slackMethod(remindersRouter, {
  name: 'reminders.add',
  args: z.object({
    text: opt(),
    time: z.union([z.string(), z.number()]).optional(),
    user: opt(),
    recurrence: z.unknown().optional(),
    team_id: opt(),
  }),
  scopes: { user: ['reminders:write'] },
  tokens: ['slack_user'],
  handler: (c, a) =>
    c.var.world.tx((db) => {
      if (!a.text) throw new SlackApiError('no_text')
      if (a.time === undefined || a.time === '') throw new SlackApiError('cannot_parse')
      const self = me(c)
      // Slack no longer sets reminders for other users: `user` is documented "No longer supported - reminders cannot
      // be set for other users" and the method's errors list `cannot_add_others`. The caller's own id is accepted.
      // Deviation (unverified): Slack's answer to a member naming someone else is not recorded; `cannot_add_others`
      // (once "Guests can't set reminders for other team members") is the listed error that says it. An unknown id
      // is `user_not_found` first.
      if (a.user && requireUser(db, a.user).id !== self.id) throw new SlackApiError('cannot_add_others')
      const now = nowSec(db)
      // Read in the time zone of the caller's account (Slack's profile zone is the world user's).
      const zone = c.var.user.timeZone || 'UTC'
      const { time, recurrence } = reminderTime(a.time, a.recurrence, now, zone)
      if (time < now) throw new SlackApiError('time_in_past')
      const id = slackId(db, 'Rm')
      stmt(
        db,
        'INSERT INTO slack_reminders (id, creator, user_id, text, time, recurrence, anchor) VALUES (?,?,?,?,?,?,?)',
      ).run(
        id,
        self.id,
        self.id,
        a.text,
        time,
        recurrence ? JSON.stringify(recurrence) : null,
        recurrence ? time : null,
      )
      return { reminder: wire(stmt(db, 'SELECT * FROM slack_reminders WHERE id = ?').get(id) as Row) }
    }),
})

/** A reminder the caller created or receives. */
function own(db: Parameters<typeof me>[0]['var']['world']['db'], id: string | undefined, self: string) {
  const r = stmt(db, 'SELECT * FROM slack_reminders WHERE id = ?').get(id ?? '') as Row | undefined
  if (!r || (r.user_id !== self && r.creator !== self)) throw new SlackApiError('not_found')
  return r
}

slackMethod(remindersRouter, {
  name: 'reminders.list',
  args: z.object({ team_id: opt() }),
  scopes: { user: ['reminders:read'] },
  tokens: ['slack_user'],
  handler: (c) => {
    const self = me(c).id
    const rows = stmt(
      c.var.world.db,
      'SELECT * FROM slack_reminders WHERE user_id = ? OR creator = ? ORDER BY time, rowid',
    ).all(self, self) as Row[]
    return { reminders: rows.map(wire) }
  },
})

slackMethod(remindersRouter, {
  name: 'reminders.info',
  args: z.object({ reminder: opt() }),
  scopes: { user: ['reminders:read'] },
  tokens: ['slack_user'],
  handler: (c, a) => ({ reminder: wire(own(c.var.world.db, a.reminder, me(c).id)) }),
})

slackMethod(remindersRouter, {
  name: 'reminders.complete',
  args: z.object({ reminder: opt() }),
  scopes: { user: ['reminders:write'] },
  tokens: ['slack_user'],
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const r = own(db, a.reminder, me(c).id)
      if (r.recurrence) throw new SlackApiError('cannot_complete_recurring')
      if (r.complete_ts) throw new SlackApiError('already_complete')
      stmt(db, 'UPDATE slack_reminders SET complete_ts = ? WHERE id = ?').run(nowSec(db), r.id)
      return {}
    }),
})

slackMethod(remindersRouter, {
  name: 'reminders.delete',
  args: z.object({ reminder: opt() }),
  scopes: { user: ['reminders:write'] },
  tokens: ['slack_user'],
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const r = own(db, a.reminder, me(c).id)
      stmt(db, 'DELETE FROM slack_reminders WHERE id = ?').run(r.id)
      return {}
    }),
})

// Do not disturb: a snooze end per user.
const dndOf = (c: Parameters<typeof me>[0], user: string) => {
  const db = c.var.world.db
  const end =
    (stmt(db, 'SELECT snooze_end FROM slack_dnd WHERE user_id = ?').get(user) as { snooze_end: number } | undefined)
      ?.snooze_end ?? 0
  const on = end > nowSec(db)
  return {
    dnd_enabled: on,
    next_dnd_start_ts: 1,
    next_dnd_end_ts: 1,
    snooze_enabled: on,
    ...(on ? { snooze_endtime: end, snooze_remaining: end - nowSec(db), snooze_is_indefinite: false } : {}),
  }
}

slackMethod(remindersRouter, {
  name: 'dnd.info',
  args: z.object({ user: opt(), team_id: opt() }),
  scopes: { user: ['dnd:read'], bot: ['dnd:read'] },
  handler: (c, a) => dndOf(c, a.user ? requireUser(c.var.world.db, a.user).id : me(c).id),
})

slackMethod(remindersRouter, {
  name: 'dnd.setSnooze',
  args: z.object({ num_minutes: slackInt().optional() }),
  scopes: { user: ['dnd:write'] },
  tokens: ['slack_user'],
  handler: (c, a) => {
    if (!a.num_minutes || a.num_minutes < 1) throw new SlackApiError('invalid_arguments')
    const self = me(c).id
    c.var.world.tx((db) =>
      stmt(
        db,
        'INSERT INTO slack_dnd (user_id, snooze_end) VALUES (?, ?) ON CONFLICT(user_id) DO UPDATE SET snooze_end = excluded.snooze_end',
      ).run(self, nowSec(db) + a.num_minutes! * 60),
    )
    const d = dndOf(c, self)
    return {
      snooze_enabled: true,
      snooze_endtime: d.snooze_endtime,
      snooze_remaining: d.snooze_remaining,
      snooze_is_indefinite: false,
    }
  },
})

for (const name of ['dnd.endSnooze', 'dnd.endDnd'] as const) {
  slackMethod(remindersRouter, {
    name,
    args: z.object({}).passthrough(),
    scopes: { user: ['dnd:write'] },
    tokens: ['slack_user'],
    handler: (c) => {
      const self = me(c).id
      const was = dndOf(c, self).snooze_enabled
      if (name === 'dnd.endSnooze' && !was) throw new SlackApiError('snooze_not_active')
      c.var.world.tx((db) => stmt(db, 'DELETE FROM slack_dnd WHERE user_id = ?').run(self))
      return name === 'dnd.endSnooze'
        ? { dnd_enabled: false, next_dnd_start_ts: 1, next_dnd_end_ts: 1, snooze_enabled: false }
        : {}
    },
  })
}

slackMethod(remindersRouter, {
  name: 'dnd.teamInfo',
  args: z.object({ users: opt(), team_id: opt() }),
  scopes: { user: ['dnd:read'], bot: ['dnd:read'] },
  handler: (c, a) => {
    const ids = (a.users ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    if (ids.length === 0) throw new SlackApiError('invalid_arguments')
    return {
      users: Object.fromEntries(
        ids.map((id) => {
          const d = dndOf(c, requireUser(c.var.world.db, id).id)
          return [id, { dnd_enabled: d.dnd_enabled, next_dnd_start_ts: 1, next_dnd_end_ts: 1 }]
        }),
      ),
    }
  },
})
