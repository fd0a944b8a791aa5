import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackInt, slackJson, slackMethod } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { me, nowSec, parseJson, userById } from '../store/core.ts'

// Calls registered by a calling app (calls.add), with their participants. The call object is what
// a `call` block in a message renders.

export const callsRouter = createSlackRouter()
const opt = () => z.string().optional()
const WRITE = { user: ['calls:write'], bot: ['calls:write'] }
const READ = { user: ['calls:read'], bot: ['calls:read'] }

type CallRow = {
  id: string
  external_unique_id: string
  external_display_id: string
  join_url: string
  desktop_join_url: string
  title: string
  created_by: string
  app_user: string
  date_start: number
  date_end: number
  participants: string
  all_participants: string
}
type Participant = { slack_id?: string; external_id?: string; display_name?: string; avatar_url?: string }
const CallUser = z.object({
  slack_id: z.string().optional(),
  external_id: z.string().optional(),
  display_name: z.string().optional(),
  avatar_url: z.string().optional(),
})

/** Participants as given: Slack users by `slack_id`, others by `external_id` + `display_name`. */
function participants(db: Db, list: Participant[] | undefined): Participant[] {
  if (!list || list.length === 0) throw new SlackApiError('invalid_arguments')
  return list.map((p) => {
    if (p.slack_id) {
      if (!userById(db, p.slack_id)) throw new SlackApiError('invalid_user')
      return { slack_id: p.slack_id }
    }
    if (!p.external_id || !p.display_name) throw new SlackApiError('invalid_user')
    return {
      external_id: p.external_id,
      display_name: p.display_name,
      ...(p.avatar_url ? { avatar_url: p.avatar_url } : {}),
    }
  })
}
const same = (a: Participant, b: Participant) =>
  a.slack_id ? a.slack_id === b.slack_id : !!a.external_id && a.external_id === b.external_id

/** The call object as calls.add/info return it (`users` are the active participants). */
function callWire(r: CallRow) {
  const out: Record<string, unknown> = {
    id: r.id,
    date_start: r.date_start,
    external_unique_id: r.external_unique_id,
    join_url: r.join_url,
    ...(r.desktop_join_url ? { desktop_app_join_url: r.desktop_join_url } : {}),
    external_display_id: r.external_display_id,
    title: r.title,
    users: parseJson<Participant[]>(r.participants, []),
  }
  if (r.date_end) out.date_end = r.date_end
  return out
}

const callOf = (db: Db, id: string | undefined) => {
  const r = (id ? stmt(db, 'SELECT * FROM slack_calls WHERE id = ?').get(id) : undefined) as CallRow | undefined
  if (!r) throw new SlackApiError('invalid_call_id')
  return r
}
/** A call the calling app registered (other apps cannot change it). */
const ownCall = (db: Db, id: string | undefined, caller: string) => {
  const r = callOf(db, id)
  if (r.app_user !== caller) throw new SlackApiError('invalid_call_id')
  return r
}
const url = (v: string | undefined) => v !== undefined && /^https?:\/\/\S+$/.test(v)

slackMethod(callsRouter, {
  name: 'calls.add',
  scopes: WRITE,
  args: z.object({
    external_unique_id: opt(),
    join_url: opt(),
    external_display_id: opt(),
    desktop_app_join_url: opt(),
    date_start: slackInt().optional(),
    title: opt(),
    created_by: opt(),
    users: slackJson(z.array(CallUser)).optional(),
  }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const caller = me(c)
      if (!a.external_unique_id || !url(a.join_url)) throw new SlackApiError('invalid_arguments')
      if (a.desktop_app_join_url !== undefined && !url(a.desktop_app_join_url))
        throw new SlackApiError('invalid_arguments')
      if (
        stmt(db, 'SELECT 1 FROM slack_calls WHERE external_unique_id = ? AND app_user = ?').get(
          a.external_unique_id,
          caller.id,
        )
      )
        throw new SlackApiError('duplicate_external_unique_id')
      // Bots must name the Slack user who started the call; for user tokens it is the caller.
      const createdBy = a.created_by ?? (caller.is_bot ? undefined : caller.id)
      if (!createdBy) throw new SlackApiError('invalid_created_by')
      if (!userById(db, createdBy)) throw new SlackApiError('invalid_created_by')
      const users = a.users ? participants(db, a.users) : []
      const id = slackId(db, 'R')
      stmt(
        db,
        `INSERT INTO slack_calls (id, external_unique_id, external_display_id, join_url, desktop_join_url, title, created_by, app_user, date_start, participants, all_participants)
      VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
      ).run(
        id,
        a.external_unique_id,
        a.external_display_id ?? '',
        a.join_url,
        a.desktop_app_join_url ?? '',
        a.title ?? '',
        createdBy,
        caller.id,
        a.date_start ?? nowSec(db),
        JSON.stringify(users),
        JSON.stringify(users),
      )
      return { call: callWire(callOf(db, id)) }
    }),
})

slackMethod(callsRouter, {
  name: 'calls.info',
  args: z.object({ id: opt() }),
  scopes: READ,
  handler: (c, a) => ({ call: callWire(callOf(c.var.world.db, a.id)) }),
})

slackMethod(callsRouter, {
  name: 'calls.update',
  args: z.object({ id: opt(), title: opt(), join_url: opt(), desktop_app_join_url: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const r = ownCall(db, a.id, me(c).id)
      if (
        (a.join_url !== undefined && !url(a.join_url)) ||
        (a.desktop_app_join_url !== undefined && !url(a.desktop_app_join_url))
      )
        throw new SlackApiError('invalid_arguments')
      stmt(db, 'UPDATE slack_calls SET title = ?, join_url = ?, desktop_join_url = ? WHERE id = ?').run(
        a.title ?? r.title,
        a.join_url ?? r.join_url,
        a.desktop_app_join_url ?? r.desktop_join_url,
        r.id,
      )
      return { call: callWire(callOf(db, r.id)) }
    }),
})

slackMethod(callsRouter, {
  name: 'calls.end',
  args: z.object({ id: opt(), duration: slackInt().optional() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const r = ownCall(db, a.id, me(c).id)
      if (r.date_end) throw new SlackApiError('already_ended')
      if (a.duration !== undefined && a.duration < 0) throw new SlackApiError('invalid_arguments')
      const end = a.duration !== undefined ? r.date_start + a.duration : Math.max(nowSec(db), r.date_start)
      stmt(db, "UPDATE slack_calls SET date_end = ?, participants = '[]' WHERE id = ?").run(end, r.id)
      return {}
    }),
})

for (const [name, add] of [
  ['calls.participants.add', true],
  ['calls.participants.remove', false],
] as const) {
  slackMethod(callsRouter, {
    name,
    args: z.object({ id: opt(), users: slackJson(z.array(CallUser)).optional() }),
    scopes: WRITE,
    handler: (c, a) =>
      c.var.world.tx((db) => {
        const r = ownCall(db, a.id, me(c).id)
        if (r.date_end) throw new SlackApiError('already_ended')
        const users = participants(db, a.users)
        let active = parseJson<Participant[]>(r.participants, [])
        const all = parseJson<Participant[]>(r.all_participants, [])
        if (add) {
          for (const u of users) {
            if (!active.some((p) => same(u, p))) active.push(u)
            if (!all.some((p) => same(u, p))) all.push(u)
          }
        } else active = active.filter((p) => !users.some((u) => same(u, p)))
        stmt(db, 'UPDATE slack_calls SET participants = ?, all_participants = ? WHERE id = ?').run(
          JSON.stringify(active),
          JSON.stringify(all),
          r.id,
        )
        return {}
      }),
  })
}
